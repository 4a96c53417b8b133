/**
 * The Vercel host of the request rules (service/rules): Vercel Routing Middleware, which the
 * platform runs before its cache, the static files and the functions, so rate limits, Markdown
 * negotiation and security headers apply to every request exactly once. The Node host
 * (server.ts) applies the same rules itself.
 *
 * Runtime: Node.js, which Vercel recommends over the edge runtime for Routing Middleware (the
 * edge runtime is deprecated there); see docs/architecture.md.
 */
import { readRulesSettings, type CounterSettings } from './service/middleware-settings.ts';
import { requestUrl } from './service/http/request-url.ts';
import { applyRules } from './service/rules/index.ts';
import { apiRateLimit } from './service/rules/policy.ts';
import {
  createRateLimiter,
  MemoryCounterStore,
  type CounterStore,
  type RateLimiter,
} from './service/rules/rate-limiter.ts';
import type { BreakerOptions } from './service/rules/store-breaker.ts';
import { openHttpCounterStore } from './service/rules/upstash-counter-store.ts';

/**
 * The middleware runs for every path but the built assets: hashed files (styles, scripts,
 * fonts), images and social cards, the shared styles and the favicon need no rule, and their
 * security headers come from the Build Output (scripts/build-output.mjs). Vercel reads this
 * object as written, so the matcher stays a literal.
 */
export const config = { runtime: 'nodejs', matcher: '/((?!_astro/|images/|styles/|favicon\\.svg).*)' };

type Env = Record<string, string | undefined>;

/**
 * Counters shared by every instance through Upstash Redis (over HTTPS) when configured,
 * otherwise each instance counts alone. REDIS_URL (Redis over TCP) is for Node hosts and the
 * functions: a TCP client here would be carried, and connected, by every middleware instance.
 */
function middlewareCounterStore(counters: CounterSettings, breaker: Partial<BreakerOptions>): CounterStore {
  const store = openHttpCounterStore(counters.upstash, breaker);
  if (store) return store;
  if (counters.onVercel)
    console.warn(
      '[rate-limit] no UPSTASH_REDIS_REST_URL/TOKEN (or KV_REST_API_URL/TOKEN): each middleware instance counts alone',
    );
  return new MemoryCounterStore();
}

/**
 * The middleware for one environment; the default export reads the deployment's. `breaker`
 * overrides how long a counter hit may take and how the breaker around the store behaves
 * (service/rules/store-breaker.ts).
 */
export function requestRulesMiddleware(env: Env, { breaker = {} }: { breaker?: Partial<BreakerOptions> } = {}) {
  const settings = readRulesSettings(env);
  let limiter: Promise<RateLimiter> | undefined;

  return async function middleware(request: Request): Promise<Response> {
    limiter ??= Promise.resolve(createRateLimiter(apiRateLimit, middlewareCounterStore(settings.counters, breaker)));
    const url = requestUrl(request);
    // Always behind Vercel here, whose client-IP header cannot be forged by the client.
    const outcome = await applyRules(request, {
      siteUrl: settings.siteUrl || url.origin,
      apiLimiter: await limiter,
      trustProxy: 'vercel',
    });
    if (outcome.kind === 'respond') return outcome.response;
    // Vercel's middleware protocol: continue (or rewrite) and add these headers to the response.
    const headers = new Headers(outcome.headers);
    if (outcome.pathname !== url.pathname) {
      headers.set('x-middleware-rewrite', new URL(outcome.pathname + url.search, url).href);
    } else {
      headers.set('x-middleware-next', '1');
    }
    return new Response(null, { headers });
  };
}

export default requestRulesMiddleware(process.env);
