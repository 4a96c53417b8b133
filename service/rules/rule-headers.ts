/**
 * The headers the request rules add, each set made once and shared by every request it is given
 * to (frozen, so no reader can change another request's): the security headers of each kind of
 * answer, CORS for /v1 and the published files, a page's `Vary` and `Link`. A host keeps what it
 * works out from each set by the object itself (service/host/web-response.ts), so the same
 * object comes back for the same kind of answer and path.
 */
import { cachePolicy } from '../http/cache-policy.ts';
import { agentFileHeaders, aiCatalogLink, enquiryOpenApiPath, mcpServerCardLink } from '../site-files.ts';
import { markdownTwinPath } from './negotiation.ts';
import { framablePaths, securityHeaders } from './security-headers.ts';

export const corsHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
  'Access-Control-Allow-Headers': 'Accept, Authorization, Content-Type, If-None-Match',
  'Access-Control-Expose-Headers':
    'ETag, RateLimit, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After',
  'Access-Control-Max-Age': '86400',
} as const;

type Headers = Readonly<Record<string, string>>;

/** Headers from several sources, later sources winning, frozen. */
function frozen(...sources: Headers[]): Headers {
  return Object.freeze(Object.assign({}, ...sources) as Record<string, string>);
}

/** Which security headers an answer carries: over https or not, and whether a page of the site may frame it. */
export type SecurityKind = 'https' | 'http' | 'httpsFramable' | 'httpFramable';

export function securityKind(pathname: string, https: boolean): SecurityKind {
  return framablePaths.has(pathname) ? (https ? 'httpsFramable' : 'httpFramable') : https ? 'https' : 'http';
}

function kindHeaders(https: boolean, framable: boolean) {
  const security = frozen(securityHeaders({ https, framable }));
  return { security, vary: frozen(security, { Vary: 'Accept' }) };
}

/** Per kind: the security headers alone, and with `Vary: Accept` (an answer that depends on Accept). */
export const kinds: Record<SecurityKind, { security: Headers; vary: Headers }> = {
  https: kindHeaders(true, false),
  http: kindHeaders(false, false),
  httpsFramable: kindHeaders(true, true),
  httpFramable: kindHeaders(false, true),
};

function apiKind(https: boolean) {
  const base = frozen(securityHeaders({ https }), corsHeaders);
  return { base, file: frozen(base, { 'Cache-Control': cachePolicy.catalogue, Vary: 'Accept' }) };
}

/**
 * /v1's headers, over https or not: the security headers with CORS (`base`), and with the
 * caching of an answer published as a file (`file`). A counted request's rate-limit headers go
 * after the first `apiBaseCount` of them (CountedHeaders, outcomes.ts).
 */
export const apiHeaders = { https: apiKind(true), http: apiKind(false) };
export const apiBaseCount = Object.keys(apiHeaders.https.base).length;

/** Link header of an HTML page: its Markdown twin, and on the home page the API catalog and API description. */
function pageLinks(pathname: string): string[] {
  const links = [`<${markdownTwinPath(pathname)}>; rel="alternate"; type="text/markdown"`];
  if (pathname === '/' || pathname === '') {
    links.push(
      '</.well-known/api-catalog>; rel="api-catalog"',
      '</openapi.json>; rel="service-desc"; type="application/json"',
      '</developers>; rel="service-doc"; type="text/html"',
      `<${aiCatalogLink.href}>; rel="${aiCatalogLink.rel}"; type="${aiCatalogLink.type}"`,
      `<${mcpServerCardLink.href}>; rel="${mcpServerCardLink.rel}"; type="${mcpServerCardLink.type}"`,
      `<${enquiryOpenApiPath}>; rel="service-desc"; type="application/json"`,
    );
  }
  return links;
}

/** A page's headers: `Vary: Accept` (it has a Markdown twin) and its `Link`. */
export function pageHeaders(kind: SecurityKind, page: string): Headers {
  return frozen(kinds[kind].vary, { Link: pageLinks(page).join(', ') });
}

/** A published machine-readable file's headers (CORS and caching, service/site-files.ts), or null for any other path. */
export function publishedFileHeaders(kind: SecurityKind, pathname: string): Headers | null {
  const own = agentFileHeaders(pathname);
  return own ? frozen(kinds[kind].security, own) : null;
}
