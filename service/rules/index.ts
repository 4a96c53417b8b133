/**
 * The request rules: what must happen to every request before it reaches a static file or a
 * live function, on either host (server.ts locally, middleware.ts on Vercel). A /v1 request is
 * counted against its client's quota first (the one step that may wait, on a shared counter
 * store); then the list of small rules in request-rules.ts decides:
 *   - /v1: over the quota 429, CORS preflights answered, a plain GET of an answer published at
 *     build time to its file, anything else to a function; rate-limit headers and CORS on every
 *     answer;
 *   - the site: CORS for the published files, a path in the wrong case to the not-found answer,
 *     `Accept: text/markdown` to the Markdown twin, `Vary: Accept` on pages, `/treks/` is the
 *     page `/treks`;
 *   - everything: security headers.
 */
import { apiPath, isApiPath } from '../http/api-path.ts';
import { requestUrl } from '../http/request-url.ts';
import { clientIp, clientQuotaKey, type ProxyTrust } from './client-ip.ts';
import type { RulesOutcome } from './outcomes.ts';
import type { RateLimiter } from './rate-limiter.ts';
import { decide, type AskedFor, type RuleInput } from './request-rules.ts';
import { securityKind } from './rule-headers.ts';
import { reportStoreFailure, reportStoreHealthy } from './store-outage.ts';

export type { PreparedAnswer, RuleHeaders, RulesOutcome } from './outcomes.ts';
export { isApiPath };

export interface RulesContext {
  siteUrl: string;
  /** The limiter for /v1, or null when counting is switched off. */
  apiLimiter: RateLimiter | null;
  trustProxy: ProxyTrust;
  /** The TCP peer address, where the host knows it. */
  socketAddress?: string | undefined;
}

/** What the rules read of a request; a web `Request` is one, and a host may pass a lighter view. */
export interface RulesRequest extends AskedFor {
  url: string;
  /** `url` already parsed, when the host has it. */
  parsedUrl?: URL;
  /** The key the client is counted under (clientQuotaKey of its address), when the host has worked it out. */
  clientKey?: string;
  /** `parsedUrl.pathname`, when the host has read it (one string per request target, so lookups by it are cheap). */
  pathname?: string;
}

/** The request as the rules see it, not yet counted. */
function inputOf(request: RulesRequest, ctx: RulesContext): RuleInput {
  const url = request.parsedUrl ?? (request instanceof Request ? requestUrl(request) : new URL(request.url));
  const pathname = request.pathname ?? url.pathname;
  const https = ctx.siteUrl.startsWith('https:');
  return {
    request,
    url,
    pathname,
    api: apiPath(pathname),
    decision: null,
    siteUrl: ctx.siteUrl,
    https,
    kind: securityKind(pathname, https),
  };
}

export async function applyRules(request: RulesRequest, ctx: RulesContext): Promise<RulesOutcome> {
  const input = inputOf(request, ctx);
  if (input.api.kind === 'not-api' || !ctx.apiLimiter) return decide(input);
  try {
    input.decision = await ctx.apiLimiter(clientKeyOf(request, ctx));
    reportStoreHealthy();
  } catch (error) {
    // Fail open: the API keeps answering, without invented rate-limit numbers.
    reportStoreFailure(error);
  }
  return decide(input);
}

/**
 * The same rules decided at once, when the counter store counts in this process's memory
 * (`RateLimiter.now`); null when counting this request has to wait on a shared store, for the
 * caller to apply the rules as above. Nothing is counted when it answers null.
 */
export function applyRulesNow(request: RulesRequest, ctx: RulesContext): RulesOutcome | null {
  const input = inputOf(request, ctx);
  if (input.api.kind === 'not-api' || !ctx.apiLimiter) return decide(input);
  if (!ctx.apiLimiter.now) return null;
  input.decision = ctx.apiLimiter.now(clientKeyOf(request, ctx));
  return decide(input);
}

function clientKeyOf(request: RulesRequest, ctx: RulesContext): string {
  return request.clientKey ?? clientQuotaKey(clientIp(request, ctx.trustProxy, ctx.socketAddress));
}
