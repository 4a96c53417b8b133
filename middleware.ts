/**
 * The Vercel host of the request rules (service/rules): Vercel Routing Middleware, which the
 * platform runs before its cache, the static files and the functions, so rate limits, Markdown
 * negotiation and security headers apply to every request exactly once. The Node host
 * (server.ts) applies the same rules itself.
 *
 * Runtime: Node.js, which Vercel recommends over the edge runtime for Routing Middleware (the
 * edge runtime is deprecated there); see docs/architecture.md.
 */
import { applyRules } from './service/rules/index.ts';
import { openCounterStore } from './service/rules/counter-stores.ts';
import { apiRateLimit } from './service/rules/policy.ts';
import { createRateLimiter, type RateLimiter } from './service/rules/rate-limiter.ts';

export const config = { runtime: 'nodejs' };

type Env = Record<string, string | undefined>;

/**
 * The middleware for one environment; the default export reads the deployment's. Counters are
 * shared by every instance through Upstash Redis (or REDIS_URL) when configured; otherwise each
 * instance counts alone. `storeTimeoutMs` overrides how long a counter hit may take.
 */
export function requestRulesMiddleware(env: Env, { storeTimeoutMs }: { storeTimeoutMs?: number } = {}) {
  const siteUrl = (env.SITE_URL ?? '').replace(/\/+$/, '');
  let limiter: Promise<RateLimiter> | undefined;

  return async function middleware(request: Request): Promise<Response> {
    limiter ??= openCounterStore(env, storeTimeoutMs).then((store) => createRateLimiter(apiRateLimit, store));
    const url = new URL(request.url);
    // Always behind Vercel here, whose client-IP header cannot be forged by the client.
    const outcome = await applyRules(request, { siteUrl: siteUrl || url.origin, apiLimiter: await limiter, trustProxy: 'vercel' });
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
