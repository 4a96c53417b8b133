/**
 * Fixed-window rate limiting per client. A window opens at a client's first request and lasts
 * `windowSeconds`; the count is an atomic increment, so N concurrent requests at the edge of the
 * quota let exactly the quota through, on one instance (in-process store) or many (Redis store).
 */
import type { RateLimitPolicy } from './policy.ts';

export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window closes. */
  resetMs: number;
}

/** Where counts live. `hit` must add `weight` (1 unless given) and read atomically. */
export interface CounterStore {
  hit(key: string, windowMs: number, now: number, weight?: number): Promise<WindowCount>;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets, at least 1. */
  resetSeconds: number;
}

export type Clock = () => number;

/** One process's counters; expired windows are swept as they are touched and periodically. */
export class MemoryCounterStore implements CounterStore {
  readonly #windows = new Map<string, { count: number; endsAt: number }>();
  #lastSweep = 0;

  async hit(key: string, windowMs: number, now: number, weight = 1): Promise<WindowCount> {
    if (now - this.#lastSweep > windowMs) this.#sweep(now);
    let window = this.#windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + windowMs };
      this.#windows.set(key, window);
    }
    window.count += weight;
    return { count: window.count, resetMs: window.endsAt - now };
  }

  #sweep(now: number): void {
    this.#lastSweep = now;
    for (const [key, window] of this.#windows) if (window.endsAt <= now) this.#windows.delete(key);
  }
}

export function createRateLimiter(policy: RateLimitPolicy, store: CounterStore, clock: Clock = Date.now) {
  const windowMs = policy.windowSeconds * 1000;
  /** Counts `weight` requests (a batch of messages counts each one) and says whether they fit. */
  return async function check(clientKey: string, weight = 1): Promise<RateLimitDecision> {
    const { count, resetMs } = await store.hit(`rl:${policy.name}:${clientKey}`, windowMs, clock(), weight);
    return {
      allowed: count <= policy.requests,
      limit: policy.requests,
      remaining: Math.max(0, policy.requests - count),
      resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
    };
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** The headers of the contract plus the current draft's `RateLimit` field. */
export function rateLimitHeaders(policy: RateLimitPolicy, d: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Policy': `${policy.requests};w=${policy.windowSeconds}`,
    'RateLimit-Limit': String(d.limit),
    'RateLimit-Remaining': String(d.remaining),
    'RateLimit-Reset': String(d.resetSeconds),
    RateLimit: `"default";r=${d.remaining};t=${d.resetSeconds}`,
    'X-RateLimit-Limit': String(d.limit),
    'X-RateLimit-Remaining': String(d.remaining),
    'X-RateLimit-Reset': String(d.resetSeconds),
  };
  if (!d.allowed) headers['Retry-After'] = String(d.resetSeconds);
  return headers;
}
