/**
 * The MCP endpoint shares the API's quota: each JSON-RPC message counts as one request against
 * the client's 120 a minute, so a batch of tool calls cannot buy what single /v1 requests cannot.
 * A batch may hold at most `maxBatch` messages; anything over the quota is refused with 429, the
 * same rate-limit headers as /v1 and a JSON-RPC error.
 */
import { apiRateLimit } from '../rules/policy.ts';
import { clientQuotaKey } from '../rules/client-ip.ts';
import { rateLimitHeaders, type RateLimiter } from '../rules/rate-limiter.ts';

export const maxBatch = 10;

export interface McpQuota {
  /** The API's limiter, on the store every host and function of the deployment shares. */
  limiter: RateLimiter;
  clientIp: string;
}

export type QuotaDecision = { allowed: true; headers: Record<string, string> } | { allowed: false; status: number; message: string; headers: Record<string, string> };

let failureLoggedAt = 0;

export async function checkQuota(quota: McpQuota, messages: number): Promise<QuotaDecision> {
  if (messages > maxBatch) {
    return { allowed: false, status: 400, message: `Invalid Request: a batch of ${messages} messages; send at most ${maxBatch} in one request.`, headers: {} };
  }
  try {
    const decision = await quota.limiter(clientQuotaKey(quota.clientIp), messages);
    const headers = rateLimitHeaders(apiRateLimit, decision);
    if (decision.allowed) return { allowed: true, headers };
    return {
      allowed: false,
      status: 429,
      message: `Rate limit exceeded: ${apiRateLimit.requests} requests per ${apiRateLimit.windowSeconds} seconds per client IP, shared with /v1; each message of a batch counts. Retry after ${decision.resetSeconds} seconds.`,
      headers,
    };
  } catch (error) {
    // Fail open, as the API does: a broken counter store must not take the endpoint down.
    if (Date.now() - failureLoggedAt > 60_000) {
      failureLoggedAt = Date.now();
      console.error(`[mcp] rate-limit counters unavailable, not limiting: ${error instanceof Error ? error.message : String(error)}`);
    }
    return { allowed: true, headers: {} };
  }
}
