/**
 * The MCP endpoint shares the API's quota: each POST (one JSON-RPC message; a batch, which no
 * revision spoken here has, is refused whole and counts once; one too large, from an origin
 * refused or not JSON is refused and counts all the same) counts as one request
 * against the client's 120 a minute, so tool calls cannot buy what /v1 requests cannot. Anything
 * over the quota is refused with 429, the same rate-limit headers as /v1 and a JSON-RPC error.
 */
import { apiRateLimit } from '../rules/policy.ts';
import { clientQuotaKey } from '../rules/client-ip.ts';
import { rateLimitHeaders, type RateLimiter } from '../rules/rate-limiter.ts';

export interface McpQuota {
  /** The API's limiter, on the store every host and function of the deployment shares. */
  limiter: RateLimiter;
  clientIp: string;
}

export type QuotaDecision =
  | { allowed: true; headers: Record<string, string> }
  | { allowed: false; status: number; message: string; headers: Record<string, string> };

let failureLoggedAt = 0;

export async function checkQuota(quota: McpQuota): Promise<QuotaDecision> {
  try {
    const decision = await quota.limiter(clientQuotaKey(quota.clientIp), 1);
    const headers = rateLimitHeaders(apiRateLimit, decision);
    if (decision.allowed) return { allowed: true, headers };
    return {
      allowed: false,
      status: 429,
      message: `Rate limit exceeded: ${apiRateLimit.requests} requests per ${apiRateLimit.windowSeconds} seconds per client IP, shared with /v1; each message counts. Retry after ${decision.resetSeconds} seconds.`,
      headers,
    };
  } catch (error) {
    // Fail open, as the API does: a broken counter store must not take the endpoint down.
    if (Date.now() - failureLoggedAt > 60_000) {
      failureLoggedAt = Date.now();
      console.error(
        `[mcp] rate-limit counters unavailable, not limiting: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return { allowed: true, headers: {} };
  }
}
