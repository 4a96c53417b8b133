/**
 * The Vercel host of the request rules: an edge function that runs before the filesystem
 * (static files) and the Astro function, so rate limits, Markdown negotiation and security
 * headers apply to every request. Bundled into the Build Output by
 * scripts/vercel-request-rules.mjs; the rules themselves live in api/rules.
 */
import { applyRules } from './api/rules/index.ts';
import { apiRateLimit } from './api/rules/policy.ts';
import { createRateLimiter, MemoryCounterStore } from './api/rules/rate-limiter.ts';

const siteUrl = (process.env.SITE_URL ?? '').replace(/\/+$/, '');
// Counts kept per edge instance until a shared store is configured.
const apiLimiter = createRateLimiter(apiRateLimit, new MemoryCounterStore());

export default async function middleware(request: Request): Promise<Response> {
  const url = new URL(request.url);
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
}
