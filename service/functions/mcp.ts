/**
 * The MCP function: the streamable HTTP endpoint at `/mcp` (service/mcp), whose tools run the
 * same operations as /v1, live departures included, and whose messages count against the same
 * per-client quota. Its enquiry tool takes enquiries through the bookings path, on the same
 * store, mailer and per-address enquiry quota as POST /api/bookings. A client that shows MCP App
 * views is offered the departure search as one, as the build it answers from made it
 * (built-views.ts).
 */
import { handleMcp } from '../mcp/index.ts';
import { apiRateLimit } from '../rules/policy.ts';
import { createRateLimiter, type RateLimiter } from '../rules/rate-limiter.ts';
import { enquiryPath } from './enquiries.ts';
import { clientOf, liveFunction, type LiveFunction } from './live-function.ts';
import { liveDepartures } from './live-storage.ts';
import { alertStorage } from './alert-storage.ts';
import { readBoardQuery } from '../departures/board-filters.ts';
import type { LiveDeps } from './runtime.ts';

/**
 * The MCP function of one build: its tools, their schemas, the enquiry checks and the view are
 * that build's, on the instance's storage and counters.
 */
export function mcpFunction(deps: LiveDeps): LiveFunction {
  const departures = liveDepartures(deps);
  const enquiryDeps = enquiryPath(deps);
  const storage = deps.shared(alertStorage);
  // The JSON Feed of a search's changes, read from the change log when a client reads the resource.
  const changes = async (query: URLSearchParams): Promise<string> => {
    const parts = await storage();
    if (!parts) throw new Error('departures are not published on this site');
    const { feedEntries, jsonFeed } = await import('../alerts/feeds.ts');
    const catalogue = deps.build.catalogue();
    const { filters } = readBoardQuery(query, catalogue, deps.clock());
    return jsonFeed(catalogue, filters, await feedEntries(parts.changes, catalogue, filters, deps.clock()));
  };
  // The API's quota, on the counter store the rules and every function of the deployment share.
  let limiter: Promise<RateLimiter> | undefined;
  return liveFunction('mcp', deps.build, async (request) => {
    limiter ??= deps.counters().then((store) => createRateLimiter(apiRateLimit, store));
    const clientIp = clientOf(request);
    const enquiries = { deps: enquiryDeps, clientIp };
    return handleMcp(
      request,
      {
        catalogue: deps.build.catalogue(),
        departures: departures.source(),
        enquiries,
        views: deps.build.views,
        changes,
      },
      { limiter: await limiter, clientIp },
    );
  });
}
