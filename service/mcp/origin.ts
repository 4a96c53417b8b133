/**
 * Which browser origins may call /mcp (DNS rebinding: a page on a foreign name that resolves to
 * this machine must not reach the endpoint). Requests without an Origin (agents, CLIs) pass; a
 * browser page may call only from the site itself. A site served on a loopback name is the same
 * site under the machine's other loopback names, on the same scheme and port: `localhost`,
 * `127.0.0.1` and `[::1]` all reach one server, and a client cannot tell which one it was given.
 */

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

export function originAllowed(origin: string | null, siteUrl: string): boolean {
  if (origin === null) return true;
  try {
    const asked = new URL(origin);
    const site = new URL(siteUrl);
    if (asked.origin === site.origin) return true;
    return loopbackHosts.has(site.hostname) && loopbackHosts.has(asked.hostname) && asked.protocol === site.protocol && asked.port === site.port;
  } catch {
    // `null` (an opaque origin) and anything else that is not an origin.
    return false;
  }
}
