/**
 * The request rules: what must happen to every request before it reaches a static file or a
 * live function, on either host (server.ts locally, middleware.ts on Vercel).
 *   - /v1: rate limit (429 over quota) and rate-limit headers on every answer, CORS; a plain
 *     GET of an answer published at build time goes to its file, anything else to a function;
 *   - pages: `Accept: text/markdown` rewrites to the Markdown twin, `Vary: Accept` always;
 *     `/treks/` is the page `/treks`;
 *   - everything: security headers.
 */
import { errorAnswer, ApiError } from '../http/errors.ts';
import { clientIp, clientQuotaKey, type ProxyTrust } from './client-ip.ts';
import { isPagePath, markdownTwinPath, prefersMarkdown } from './negotiation.ts';
import { acceptsJson } from '../v1/accept.ts';
import { apiPath, isApiPath, routableApiPath, type ApiPath } from '../v1/path.ts';
import { staticAnswerFile } from '../v1/static-paths.ts';
import { cachePolicy } from '../http/cache-policy.ts';
import { memoise } from '../http/bounded-memo.ts';
import { requestUrl } from '../http/request-url.ts';
import { apiRateLimit } from './policy.ts';
import { rateLimitHeaders, rateLimitList, type RateLimitDecision, type RateLimiter } from './rate-limiter.ts';
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
  /** The key the client is counted under (clientQuotaKey of its address), when the host has worked it out. */
  clientKey?: string;
  /** `parsedUrl.pathname`, when the host has read it (one string per request target, so lookups by it are cheap). */
  pathname?: string;
}

/**
 * An answer the rules give that is the same for every request it is given to (a refusal over the
 * quota, for a given reset time): its status, headers (in the order a web Response lists them)
 * and body, made once, for a host that writes them as they are (service/host/request-handler.ts).
 */
export interface PreparedAnswer {
  status: number;
  headers: readonly (readonly [string, string])[];
  body: Buffer;
}

export type RulesOutcome =
  | { kind: 'respond'; response: Response; prepared?: PreparedAnswer }
  /** Go on to a file or a function, at `pathname` (a rewrite when it differs), adding `headers` (read only: often shared by every request to the path). */
  | { kind: 'continue'; pathname: string; headers: Readonly<Record<string, string>>; counted?: CountedHeaders };

/** The headers an outcome adds, as a host reads them: whole, or in two parts for a counted /v1 request. */
export type RuleHeaders = Pick<Extract<RulesOutcome, { kind: 'continue' }>, 'headers' | 'counted'>;

/**
 * The headers of a counted /v1 request in two parts, for a host that writes them without an
 * object per request: `headers` is `shared` with `limits` inserted after its first `after`
 * names (the security and CORS headers). `shared` is the same for every request to the path
 * (frozen); `limits` are this request's rate-limit headers, a flat name, value list.
 */
interface CountedHeaders {
  shared: Readonly<Record<string, string>>;
  after: number;
  limits: readonly string[];
}

const corsHeaders = {
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
  https: Object.freeze(headersOf(baseHeaders.https, corsHeaders)),
  http: Object.freeze(headersOf(baseHeaders.http, corsHeaders)),
};
/** The same with the caching of an answer published as a file (the rate-limit headers go between: CountedHeaders). */
const apiFileHeaders = {
  https: Object.freeze(headersOf(apiBaseHeaders.https, { 'Cache-Control': cachePolicy.catalogue, Vary: 'Accept' })),
  http: Object.freeze(headersOf(apiBaseHeaders.http, { 'Cache-Control': cachePolicy.catalogue, Vary: 'Accept' })),
};
const apiBaseCount = Object.keys(apiBaseHeaders.https).length;

/** A request's rate-limit headers as an object (none when it was not counted). */
function limitHeaders(decision: RateLimitDecision | null): Record<string, string> {
  return decision ? rateLimitHeaders(apiRateLimit, decision) : {};
}

/** A /v1 request on to `pathname` with `shared` headers and its own rate-limit headers after the security and CORS ones. */
function counted(
  pathname: string,
  shared: Readonly<Record<string, string>>,
  decision: RateLimitDecision | null,
): RulesOutcome {
  return new CountedOutcome(pathname, shared, decision ? rateLimitList(apiRateLimit, decision) : noLimits);
}

const noLimits: readonly string[] = Object.freeze([]);

/** A counted /v1 request going on: its headers whole are made only for a reader that wants them so (Vercel's middleware, a function's web Response). */
class CountedOutcome {
  readonly kind = 'continue';
  readonly pathname: string;
  readonly counted: CountedHeaders;
  #headers: Record<string, string> | undefined;

  constructor(pathname: string, shared: Readonly<Record<string, string>>, limits: readonly string[]) {
    this.pathname = pathname;
    this.counted = { shared, after: apiBaseCount, limits };
  }

  get headers(): Readonly<Record<string, string>> {
    if (!this.#headers) {
      const { shared, limits } = this.counted;
      const entries = Object.entries(shared);
      const headers: Record<string, string> = {};
      for (const [name, value] of entries.slice(0, apiBaseCount)) headers[name] = value;
      for (let i = 0; i < limits.length; i += 2) headers[limits[i]!] = limits[i + 1]!;
      for (const [name, value] of entries.slice(apiBaseCount)) headers[name] = value;
      this.#headers = headers;
    }
    return this.#headers;
  }
}

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

/**
 * The refusal of a client over its /v1 quota: the contract's error with the security, CORS and
 * rate-limit headers. It depends only on the site, the kind of path and the seconds to wait, so
 * it is made once for each and sent as it is to every client refused in a flood.
 */
const refusal = memoise((key: string): PreparedAnswer => {
  const [siteUrl, name, reset] = key.split('\n') as [string, keyof typeof baseHeaders, string];
  const decision: RateLimitDecision = {
    allowed: false,
    limit: apiRateLimit.requests,
    remaining: 0,
    resetSeconds: Number(reset),
  };
  const { body, headers } = errorAnswer(
    new ApiError('rate_limited', {
      message: `Rate limit exceeded: ${apiRateLimit.requests} requests per ${apiRateLimit.windowSeconds} seconds per client IP.`,
      hint: `Wait ${decision.resetSeconds} seconds (see Retry-After) and retry.`,
    }),
    siteUrl,
  );
  for (const [k, v] of Object.entries({
    ...baseHeaders[name],
    ...corsHeaders,
    ...rateLimitHeaders(apiRateLimit, decision),
  }))
    headers.set(k, v);
  return Object.freeze({
    status: 429,
    headers: Object.freeze([...headers].map(([k, v]) => Object.freeze([k, v] as const))),
    body: Buffer.from(body),
  });
});

/** A refusal made once, answered as it is: the host writes `prepared`; any other reader gets a Response of its own (a body is read once). */
class PreparedOutcome {
  readonly kind = 'respond';
  readonly prepared: PreparedAnswer;

  constructor(prepared: PreparedAnswer) {
    this.prepared = prepared;
  }

  get response(): Response {
    return new Response(new Uint8Array(this.prepared.body), {
      status: this.prepared.status,
      headers: this.prepared.headers as [string, string][],
    });
  }
}

/** Which security headers this request's path carries (baseHeaders), for the headers made once per path. */
function baseOf(pathname: string, https: boolean): keyof typeof baseHeaders {
  return framablePaths.has(pathname) ? (https ? 'httpsFramable' : 'httpFramable') : https ? 'https' : 'http';
}

/**
 * Headers that are the same for every request to a path, made once and shared (frozen, so no
 * reader can change another request's): a page's (`Vary`, its `Link`), a published file's, a
 * path's security headers alone.
 */
const sharedHeaders = memoise((key: string): Record<string, string> => {
  const [name, kind, pathname] = key.split('\n') as [keyof typeof baseHeaders, string, string];
  const base = baseHeaders[name];
  if (kind === 'page') return Object.freeze(headersOf(base, { Vary: 'Accept', Link: linkHeader(pathname) }));
  if (kind === 'vary') return Object.freeze(headersOf(base, { Vary: 'Accept' }));
  if (kind === 'file') return Object.freeze(headersOf(base, agentFileHeaders(pathname)!));
  return Object.freeze(headersOf(base));
});
const shared = (name: keyof typeof baseHeaders, kind: 'page' | 'vary' | 'file' | 'base', pathname = '') =>
  sharedHeaders(`${name}\n${kind}\n${pathname}`);

export async function applyRules(request: RulesRequest, ctx: RulesContext): Promise<RulesOutcome> {
  const url = request.parsedUrl ?? (request instanceof Request ? requestUrl(request) : new URL(request.url));
  const pathname = request.pathname ?? url.pathname;
  const api = apiPath(pathname);
  if (api.kind === 'not-api' || !ctx.apiLimiter) return decided(request, ctx, url, pathname, api, null);
  let decision: RateLimitDecision | null = null;
  try {
    decision = await ctx.apiLimiter(clientKeyOf(request, ctx));
    reportStoreHealthy();
  } catch (error) {
    // Fail open: the API keeps answering, without invented rate-limit numbers.
    reportStoreFailure(error);
  }
  return decided(request, ctx, url, pathname, api, decision);
}

/**
 * The same rules decided at once, when the counter store counts in this process's memory
 * (`RateLimiter.now`); null when counting this request has to wait on a shared store, for the
 * caller to apply the rules as above. Nothing is counted when it answers null.
 */
export function applyRulesNow(request: RulesRequest, ctx: RulesContext): RulesOutcome | null {
  const url = request.parsedUrl ?? (request instanceof Request ? requestUrl(request) : new URL(request.url));
  const pathname = request.pathname ?? url.pathname;
  const api = apiPath(pathname);
  if (api.kind === 'not-api' || !ctx.apiLimiter) return decided(request, ctx, url, pathname, api, null);
  if (!ctx.apiLimiter.now) return null;
  return decided(request, ctx, url, pathname, api, ctx.apiLimiter.now(clientKeyOf(request, ctx)));
}

function clientKeyOf(request: RulesRequest, ctx: RulesContext): string {
  return request.clientKey ?? clientQuotaKey(clientIp(request, ctx.trustProxy, ctx.socketAddress));
}

/** The rules once the request is counted (`decision`: null when it was not, the store failing or counting off). */
function decided(
  request: RulesRequest,
  ctx: RulesContext,
  url: URL,
  pathname: string,
  api: ApiPath,
  decision: RateLimitDecision | null,
): RulesOutcome {
  const https = ctx.siteUrl.startsWith('https:');
  const name = baseOf(pathname, https);

  if (api.kind !== 'not-api') {
    if (decision && !decision.allowed)
      return new PreparedOutcome(refusal(`${ctx.siteUrl}\n${name}\n${decision.resetSeconds}`));
    const apiBase = https ? apiBaseHeaders.https : apiBaseHeaders.http;
    // A browser's CORS preflight is answered here, so it never starts a function.
    if (isPreflight(request)) {
      return {
        kind: 'respond',
        response: new Response(null, {
          status: 204,
          headers: {
            ...headersOf(apiBase, limitHeaders(decision)),
            Allow: corsHeaders['Access-Control-Allow-Methods'],
            'Cache-Control': cachePolicy.never,
          },
        }),
      };
    }
    const file = api.kind === 'api' && publishedAnswer(request, url) ? publishedFile(api) : null;
    const shared = file ? (https ? apiFileHeaders.https : apiFileHeaders.http) : apiBase;
    // Everything else is answered by a function, which reads the path the same way (service/v1/path.ts).
    return counted(file ?? routableApiPath(pathname, api), shared, decision);
  }

  const kind = pathKinds[name](pathname);
  // Published machine-readable files: CORS for GET (and its preflight) and cache headers.
  if (kind.fileHeaders) {
    if (request.method === 'OPTIONS')
      return { kind: 'respond', response: new Response(null, { status: 204, headers: kind.fileHeaders }) };
    return { kind: 'continue', pathname, headers: kind.fileHeaders };
  }
  const read = request.method === 'GET' || request.method === 'HEAD';
  // A path in the wrong letter case names nothing: the not-found answer Accept asks for (service/rules/wrong-case.ts).
  if (read && kind.wrongCase) {
    return {
      kind: 'continue',
      pathname: wrongCaseTarget(request.headers.get('Accept')),
      headers: shared(name, 'vary'),
    };
  }
  if (read && kind.page) {
    if (prefersMarkdown(request.headers.get('Accept'))) {
      return { kind: 'continue', pathname: markdownTwinPath(pathname), headers: shared(name, 'vary') };
    }
    return { kind: 'continue', pathname: kind.page.pathname, headers: kind.page.headers };
  }
  return { kind: 'continue', pathname, headers: kind.baseHeaders };
}

/**
 * What a path is to the rules outside /v1, worked out once per path and kind of security headers
 * (bounded): a published file (with its headers), a path in the wrong case, a page (the file it
 * names and its headers: `/treks/` is the page `/treks`, one file serves both spellings).
 */
function readPathKind(name: keyof typeof baseHeaders, pathname: string) {
  const page = isPagePath(pathname) ? (pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname) : null;
  return {
    fileHeaders: agentFileHeaders(pathname) ? shared(name, 'file', pathname) : null,
    wrongCase: isWrongCase(pathname),
    page: page === null ? null : { pathname: page, headers: shared(name, 'page', page) },
    baseHeaders: shared(name, 'base'),
  };
}
const pathKinds = {
  https: memoise((pathname: string) => readPathKind('https', pathname)),
  http: memoise((pathname: string) => readPathKind('http', pathname)),
  httpsFramable: memoise((pathname: string) => readPathKind('httpsFramable', pathname)),
  httpFramable: memoise((pathname: string) => readPathKind('httpFramable', pathname)),
};
