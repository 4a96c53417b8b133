/**
 * Whether a request that changes something (an enquiry, a claim, an MCP call) was sent by a page
 * of another site. Browsers say where a page comes from in `Origin` (sent with every POST), and
 * in `Sec-Fetch-Site`; programs that are not web pages send neither and are not refused for it.
 *
 * The site's origin is the configured one (SITE_URL), never the request's own address: that
 * follows the Host header, which a page on a name the attacker points at this server (DNS
 * rebinding) chooses, with an Origin to match. The one allowance: a site on loopback
 * (`http://localhost:4321`, the local default) is the same site at another loopback name with
 * the same scheme and port (`http://127.0.0.1:4321`), since no page of another site can have
 * such an origin. A public site gets no such allowance.
 */

/** The names every machine gives its own loopback interface, the ones a local site is opened at. */
const loopbackNames = new Set(['localhost', '127.0.0.1', '[::1]']);

function isLoopback(hostname: string): boolean {
  return loopbackNames.has(hostname);
}

/** True when `origin` (an Origin header) is the site's own. */
export function isOwnOrigin(origin: string, siteUrl: string): boolean {
  let site: URL;
  let other: URL;
  try {
    site = new URL(siteUrl);
    other = new URL(origin);
  } catch {
    // `null` (an opaque origin: a sandboxed frame, a file) or anything else unreadable
    return false;
  }
  if (other.origin === site.origin) return true;
  return (
    isLoopback(site.hostname) &&
    isLoopback(other.hostname) &&
    other.protocol === site.protocol &&
    other.port === site.port
  );
}

/** The headers a browser sets on a request, as any request object exposes them. */
interface BrowserHeaders {
  headers: { get(name: string): string | null };
}

/** True when a browser sent this request from a page that is not the site's own. */
export function sentFromAnotherSite(request: BrowserHeaders, siteUrl: string): boolean {
  const origin = request.headers.get('Origin');
  if (origin !== null) return !isOwnOrigin(origin, siteUrl);
  // A browser that left Origin out still says whether the page was of another site.
  const site = request.headers.get('Sec-Fetch-Site');
  return site === 'cross-site' || site === 'same-site';
}
