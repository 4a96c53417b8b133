/**
 * The MCP function: the streamable HTTP endpoint at `/mcp` (service/mcp), whose tools run the
 * same operations as /v1, live departures included, and whose messages count against the same
 * per-client quota. Its enquiry tool takes enquiries through the bookings path, on the same
 * store, mailer and per-address enquiry quota as POST /api/bookings. A client that shows MCP App
 * views is offered the departure search as one, read from the build (built-views.ts).
 */
import { handleMcp } from '../mcp/index.ts';
import { apiRateLimit } from '../rules/policy.ts';
import { createRateLimiter, type RateLimiter } from '../rules/rate-limiter.ts';
import { clientOf, liveFunction, type LiveFunction } from './live-function.ts';
import type { LiveDeps } from './runtime.ts';
import { builtViews } from './built-views.ts';

export function mcpFunction(deps: LiveDeps): LiveFunction {
  // The API's quota, on the counter store the rules and every function of the deployment share.
  let limiter: Promise<RateLimiter> | undefined;
  return liveFunction('mcp', async (request) => {
    limiter ??= deps.counters().then((store) => createRateLimiter(apiRateLimit, store));
    const clientIp = clientOf(request);
    const enquiries = { deps: () => deps.bookings(), clientIp };
    return handleMcp(
      request,
      { catalogue: deps.catalogue(), departures: deps.departures.source(), enquiries, views: builtViews },
      { limiter: await limiter, clientIp },
    );
  });
}
