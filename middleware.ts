/**
 * The Vercel host of the request rules: an edge function that runs before the filesystem
 * (static files) and the Astro function, so rate limits, Markdown negotiation and security
 * headers apply to every request. Bundled into the Build Output by
 * scripts/vercel-request-rules.mjs; the rules themselves live in service/rules.
 */
import { applyRules } from './service/rules/index.ts';
import { apiRateLimit } from './service/rules/policy.ts';
import { createRateLimiter, MemoryCounterStore, type CounterStore } from './service/rules/rate-limiter.ts';
import { UpstashCounterStore, upstashSettings } from './service/rules/upstash-counter-store.ts';

type Env = Record<string, string | undefined>;

/**
 * Counters shared by every edge instance when Upstash Redis (or a Marketplace Redis with the
 * same REST interface) is configured; otherwise each instance counts alone, which lets a client
 * spread over several instances exceed the quota.
 */
function edgeCounterStore(env: Env, hitTimeoutMs: number | undefined): CounterStore {
  const upstash = upstashSettings(env);
  if (!upstash) {
    console.warn('[rate-limit] no UPSTASH_REDIS_REST_URL/TOKEN (or KV_REST_API_URL/TOKEN): counting per edge instance');
    return new MemoryCounterStore();
  }
  try {
    return new UpstashCounterStore({ ...upstash, ...(hitTimeoutMs ? { hitTimeoutMs } : {}) });
  } catch (error) {
    // A malformed URL must not take every request down with the module.
    console.error(`[rate-limit] Upstash settings rejected, counting per edge instance: ${error instanceof Error ? error.message : String(error)}`);
    return new MemoryCounterStore();
  }
}

/**
 * The middleware for one environment; the default export reads the deployment's.
 * `storeTimeoutMs` overrides how long a counter hit may take (tests on a busy machine).
 */
export function requestRulesMiddleware(env: Env, { storeTimeoutMs }: { storeTimeoutMs?: number } = {}) {
  const siteUrl = (env.SITE_URL ?? '').replace(/\/+$/, '');
  const apiLimiter = createRateLimiter(apiRateLimit, edgeCounterStore(env, storeTimeoutMs));

  return async function middleware(request: Request): Promise<Response> {
    const url = new URL(request.url);
    // Always behind Vercel here, whose client-IP header cannot be forged by the client.
    const outcome = await applyRules(request, { siteUrl: siteUrl || url.origin, apiLimiter, trustProxy: 'vercel' });
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
