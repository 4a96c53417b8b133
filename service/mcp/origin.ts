/**
 * Which browser origins may call /mcp (DNS rebinding: a page on a foreign name that resolves to
 * this machine must not reach the endpoint). Requests without an Origin (agents, CLIs) pass; a
 * browser page may call only from the site itself, as service/rules/site-origin.ts decides for
 * every request that changes something (a site on loopback includes its other loopback names).
 */
import { isOwnOrigin } from '../rules/site-origin.ts';

export function originAllowed(origin: string | null, siteUrl: string): boolean {
  return origin === null || isOwnOrigin(origin, siteUrl);
}
