/**
 * Who sent a request, as the browser headers say: a page of the site, a page of another site,
 * or no web page at all. The one reading of `Origin` and `Sec-Fetch-Site` for every request that
 * changes something (an enquiry, a claim, an MCP message); docs/security.md has it as a table.
 *
 * 1. `Origin` decides when it is there: the site's own origin is the site, any other (`null`
 *    included) another site. `Sec-Fetch-Site` is not read then: a page under a name an attacker
 *    points at this server (DNS rebinding) is `same-origin` to the browser, and only its
 *    `Origin` names the foreign name.
 * 2. Without `Origin`, `Sec-Fetch-Site: cross-site` or `same-site` is another site's page (a
 *    browser that leaves `Origin` out still says where the page was).
 * 3. Otherwise a POST (any method but GET and HEAD) is no web page: browsers send `Origin` with
 *    every such request, so one without it comes from a program (curl, an MCP client, an agent).
 * 4. A GET or HEAD without `Origin` is what browsers send from the site's own page: with
 *    `Sec-Fetch-Site: same-origin` it is the site, with neither header (or `none`, an address
 *    typed by a person) no web page.
 *
 * The site's origin is the configured one (SITE_URL), never the request's own address, which
 * follows the Host header a rebound page chooses. The one allowance: a site on loopback
 * (`http://localhost:4321`, the local default) is the same site at another loopback name with
 * the same scheme and port (`http://127.0.0.1:4321`), since no page of another site can have
 * such an origin. A public site gets no such allowance.
 */

/** The names every machine gives its own loopback interface, the ones a local site is opened at. */
const loopbackNames = new Set(['localhost', '127.0.0.1', '[::1]']);

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
    loopbackNames.has(site.hostname) &&
    loopbackNames.has(other.hostname) &&
    other.protocol === site.protocol &&
    other.port === site.port
  );
}

/** Who sent a request: a page of the site, a page of another site, or a program (no web page). */
export type Sender = 'site' | 'another-site' | 'program';

/** What the check reads of a request; a web Request is one. */
interface SentRequest {
  method: string;
  headers: { get(name: string): string | null };
}

/** Who sent `request`, by the rule above. */
export function senderOf(request: SentRequest, siteUrl: string): Sender {
  const origin = request.headers.get('Origin');
  if (origin !== null) return isOwnOrigin(origin, siteUrl) ? 'site' : 'another-site';
  const fetchSite = request.headers.get('Sec-Fetch-Site');
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') return 'another-site';
  if (request.method !== 'GET' && request.method !== 'HEAD') return 'program';
  return fetchSite === 'same-origin' ? 'site' : 'program';
}
