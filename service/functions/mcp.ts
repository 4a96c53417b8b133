/**
 * The MCP function: the streamable HTTP endpoint at `/mcp` (service/mcp), whose tools run the
 * same operations as /v1, live departures included, and whose messages count against the same
 * per-client quota. Its enquiry tool takes enquiries through the bookings path, on the same
 * store, mailer and per-address enquiry quota as POST /api/bookings.
 */
import { bookingDeps } from '../bookings/runtime.ts';
import { handleMcp } from '../mcp/index.ts';
import { sharedCounterStore } from '../rules/counter-stores.ts';
import { apiRateLimit } from '../rules/policy.ts';
import { createRateLimiter, type RateLimiter } from '../rules/rate-limiter.ts';
import { liveFunction, type LiveFunction } from './live-function.ts';
import { v1Deps } from './live-storage.ts';
import { clientOf, runtimeCatalogue, runtimeSettings } from './runtime.ts';

export function mcpFunction(): LiveFunction {
  // The API's quota, on the counter store the rules and every function of the deployment share.
  let limiter: Promise<RateLimiter> | undefined;
  return liveFunction('mcp', async (request) => {
    limiter ??= sharedCounterStore(runtimeSettings().counters).then((store) => createRateLimiter(apiRateLimit, store));
    const clientIp = clientOf(request);
    const enquiries = { deps: () => bookingDeps(runtimeSettings(), async () => runtimeCatalogue()), clientIp };
    return handleMcp(request, { ...v1Deps(), enquiries }, { limiter: await limiter, clientIp });
  });
}
