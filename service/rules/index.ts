/**
 * The request rules: what must happen to every request before it reaches a static file or a
 * live function, on either host (server.ts locally, middleware.ts on Vercel).
 *   - /v1: rate limit (429 over quota) and rate-limit headers on every answer, CORS; a plain
 *     GET of an answer published at build time goes to its file, anything else to a function;
 *   - pages: `Accept: text/markdown` rewrites to the Markdown twin, `Vary: Accept` always;
 *     `/treks/` is the page `/treks`;
 *   - everything: security headers.
 */
import { errorResponse, ApiError } from '../http/errors.ts';
import { clientIp, clientQuotaKey, type ProxyTrust } from './client-ip.ts';
import { isPagePath, markdownTwinPath, prefersMarkdown } from './negotiation.ts';
import { acceptsJson } from '../v1/accept.ts';
import { apiPath, isApiPath, routableApiPath, type ApiPath } from '../v1/path.ts';
import { staticAnswerFile } from '../v1/static-paths.ts';
import { cachePolicy } from '../http/cache-policy.ts';
import { memoise } from '../http/bounded-memo.ts';
import { requestUrl } from '../http/request-url.ts';
import { apiRateLimit } from './policy.ts';
import { rateLimitHeaders, type RateLimiter } from './rate-limiter.ts';
import { framablePaths, securityHeaders } from './security-headers.ts';
import { agentFileHeaders, aiCatalogLink, enquiryOpenApiPath, mcpServerCardLink } from '../site-files.ts';
import { isWrongCase, wrongCaseTarget } from './wrong-case.ts';

export interface RulesContext {
  siteUrl: string;
  /** The limiter for /v1, or null when counting is switched off. */
  apiLimiter: RateLimiter | null;
  trustProxy: ProxyTrust;
  /** The TCP peer address, where the host knows it. */
  socketAddress?: string | undefined;
}

/** What the rules read of a request; a web `Request` is one, and a host may pass a lighter view. */
export interface RulesRequest {
  url: string;
  method: string;
  headers: { get(name: string): string | null };
  /** `url` already parsed, when the host has it. */
  parsedUrl?: URL;
}

export type RulesOutcome =
  | { kind: 'respond'; response: Response }
  /** Go on to a file or a function, at `pathname` (a rewrite when it differs), adding `headers`. */
  | { kind: 'continue'; pathname: string; headers: Record<string, string> };

export const corsHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
  'Access-Control-Allow-Headers': 'Accept, Authorization, Content-Type, If-None-Match',
  'Access-Control-Expose-Headers':
    'ETag, RateLimit, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After',
  'Access-Control-Max-Age': '86400',
} as const;

export { isApiPath };

/** Headers from several sources; later sources win. */
function headersOf(...sources: Record<string, string>[]): Record<string, string> {
  return Object.assign({}, ...sources) as Record<string, string>;
}

/** The security headers of every response, worked out once per kind of site; with CORS for /v1. */
const baseHeaders = {
  https: securityHeaders({ https: true }),
  http: securityHeaders({ https: false }),
  httpsFramable: securityHeaders({ https: true, framable: true }),
  httpFramable: securityHeaders({ https: false, framable: true }),
};
const apiBaseHeaders = {
  https: headersOf(baseHeaders.https, corsHeaders),
  http: headersOf(baseHeaders.http, corsHeaders),
};

/** Link header of an HTML page: its Markdown twin, and on the home page the API catalog and API description. */
export function pageLinks(pathname: string): string[] {
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

/** The Link header of a page, made once per page. */
const linkHeader = memoise((page: string) => pageLinks(page).join(', '));

/**
 * A counter store that fails is logged once per interval (with how many hits failed since),
 * and its recovery once, so an outage neither floods the log nor goes unnoticed.
 */
const storeFailureLogIntervalMs = 60_000;
const storeOutage = { since: 0, loggedAt: 0, failures: 0 };

function reportStoreFailure(error: unknown): void {
  const now = Date.now();
  storeOutage.failures += 1;
  if (storeOutage.since === 0) storeOutage.since = now;
  if (now - storeOutage.loggedAt < storeFailureLogIntervalMs) return;
  const reason = error instanceof Error ? error.message : String(error);
  console.error(
    `[rate-limit] counter store unavailable, not limiting (uncounted requests so far: ${storeOutage.failures}): ${reason}`,
  );
  storeOutage.loggedAt = now;
}

function reportStoreHealthy(): void {
  if (storeOutage.since === 0) return;
  console.info(
    `[rate-limit] counter store reachable again after ${Math.round((Date.now() - storeOutage.since) / 1000)} s (uncounted requests: ${storeOutage.failures})`,
  );
  storeOutage.since = 0;
  storeOutage.loggedAt = 0;
  storeOutage.failures = 0;
}

/** The published file of an API path, looked up once per path (apiPath gives one reading per path). */
const publishedFiles = new WeakMap<ApiPath, string | null>();
function publishedFile(api: Extract<ApiPath, { kind: 'api' }>): string | null {
  let file = publishedFiles.get(api);
  if (file === undefined) {
    file = staticAnswerFile(api.segments);
    publishedFiles.set(api, file);
  }
  return file;
}

/** A CORS preflight: OPTIONS naming the method a cross-origin request will use. */
function isPreflight(request: RulesRequest): boolean {
  return request.method === 'OPTIONS' && request.headers.get('Access-Control-Request-Method') !== null;
}

/** A request the file published for its path answers exactly as the API would. */
function publishedAnswer(request: RulesRequest, url: URL): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    url.search === '' &&
    acceptsJson(request.headers.get('Accept'))
  );
}

export async function applyRules(request: RulesRequest, ctx: RulesContext): Promise<RulesOutcome> {
  const url = request.parsedUrl ?? (request instanceof Request ? requestUrl(request) : new URL(request.url));
  const pathname = url.pathname;
  const https = ctx.siteUrl.startsWith('https:');
  const base = framablePaths.has(pathname)
    ? https
      ? baseHeaders.httpsFramable
      : baseHeaders.httpFramable
    : https
      ? baseHeaders.https
      : baseHeaders.http;

  const api = apiPath(pathname);
  if (api.kind !== 'not-api') {
    let limitHeaders: Record<string, string> = {};
    if (ctx.apiLimiter) {
      try {
        const decision = await ctx.apiLimiter(clientQuotaKey(clientIp(request, ctx.trustProxy, ctx.socketAddress)));
        reportStoreHealthy();
        limitHeaders = rateLimitHeaders(apiRateLimit, decision);
        if (!decision.allowed) {
          const response = errorResponse(
            new ApiError('rate_limited', {
              message: `Rate limit exceeded: ${apiRateLimit.requests} requests per ${apiRateLimit.windowSeconds} seconds per client IP.`,
              hint: `Wait ${decision.resetSeconds} seconds (see Retry-After) and retry.`,
            }),
            ctx.siteUrl,
          );
          for (const [k, v] of Object.entries({ ...base, ...corsHeaders, ...limitHeaders })) response.headers.set(k, v);
          return { kind: 'respond', response };
        }
      } catch (error) {
        // Fail open: the API keeps answering, without invented rate-limit numbers.
        reportStoreFailure(error);
      }
    }
    const headers = headersOf(https ? apiBaseHeaders.https : apiBaseHeaders.http, limitHeaders);
    // A browser's CORS preflight is answered here, so it never starts a function.
    if (isPreflight(request))
      return {
        kind: 'respond',
        response: new Response(null, {
          status: 204,
          headers: {
            ...headers,
            Allow: corsHeaders['Access-Control-Allow-Methods'],
            'Cache-Control': cachePolicy.never,
          },
        }),
      };
    const file = api.kind === 'api' && publishedAnswer(request, url) ? publishedFile(api) : null;
    if (file) {
      headers['Cache-Control'] = cachePolicy.catalogue;
      headers.Vary = 'Accept';
      return { kind: 'continue', pathname: file, headers };
    }
    // Everything else is answered by a function, which reads the path the same way (service/v1/path.ts).
    return { kind: 'continue', pathname: routableApiPath(pathname, api), headers };
  }

  // Published machine-readable files: CORS for GET (and its preflight) and cache headers.
  const fileHeaders = agentFileHeaders(pathname);
  if (fileHeaders) {
    const headers = headersOf(base, fileHeaders);
    if (request.method === 'OPTIONS')
      return { kind: 'respond', response: new Response(null, { status: 204, headers }) };
    return { kind: 'continue', pathname, headers };
  }

  // A path in the wrong letter case names nothing: the not-found answer Accept asks for (service/rules/wrong-case.ts).
  if ((request.method === 'GET' || request.method === 'HEAD') && isWrongCase(pathname)) {
    return {
      kind: 'continue',
      pathname: wrongCaseTarget(request.headers.get('Accept')),
      headers: headersOf(base, { Vary: 'Accept' }),
    };
  }

  if ((request.method === 'GET' || request.method === 'HEAD') && isPagePath(pathname)) {
    const headers = headersOf(base, { Vary: 'Accept' });
    if (prefersMarkdown(request.headers.get('Accept'))) {
      return { kind: 'continue', pathname: markdownTwinPath(pathname), headers };
    }
    // `/treks/` is the page `/treks`: one file serves both spellings.
    const page = pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname;
    headers.Link = linkHeader(page);
    return { kind: 'continue', pathname: page, headers };
  }
  return { kind: 'continue', pathname, headers: headersOf(base) };
}
