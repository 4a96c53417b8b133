/**
 * Fixed-window rate limiting per client. A window opens at a client's first request and lasts
 * `windowSeconds`; the count is an atomic increment, so N concurrent requests at the edge of the
 * quota let exactly the quota through, on one instance (in-process store) or many (Redis store).
 */
import { memoise } from '../http/bounded-memo.ts';
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
  /**
   * The same count taken at once, for a store in this process's memory: a host answering from
   * memory then waits on nothing (service/host/request-handler.ts). A shared store has none.
   */
  hitNow?(key: string, windowMs: number, now: number, weight?: number): WindowCount;
  /** Lets go of a connection to a shared store (the server stopping). */
  close?(): Promise<void>;
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
    return this.hitNow(key, windowMs, now, weight);
  }

  hitNow(key: string, windowMs: number, now: number, weight = 1): WindowCount {
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

/**
 * A limiter of `policy` on `store`. When a hit on the store fails, a policy that says
 * `whenStoreFails: 'open'` throws (its caller lets the request through uncounted); any other
 * counts in this process's memory instead, logged when it starts (then at most once a minute)
 * and when the store answers again. Counts taken in the process are not carried over to the
 * store: across an outage a client may get up to a quota from each.
 */
export function createRateLimiter(policy: RateLimitPolicy, store: CounterStore, clock: Clock = Date.now) {
  const windowMs = policy.windowSeconds * 1000;
  const inProcess = policy.whenStoreFails === 'open' ? null : new InProcessFallback(policy.name);
  const prefix = `rl:${policy.name}:`;
  // A client's key in the store, made once per client key: a string joined per request would be
  // copied and hashed again by every lookup.
  const storeKey = memoise((clientKey: string) => prefix + clientKey);
  const decision = ({ count, resetMs }: WindowCount): RateLimitDecision => ({
    allowed: count <= policy.requests,
    limit: policy.requests,
    remaining: Math.max(0, policy.requests - count),
    resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
  });
  /** Counts `weight` requests (a batch of messages counts each one) and says whether they fit. */
  const check = async (clientKey: string, weight = 1): Promise<RateLimitDecision> => {
    const key = storeKey(clientKey);
    return decision(
      inProcess
        ? await inProcess.hit(store, key, windowMs, clock(), weight)
        : await store.hit(key, windowMs, clock(), weight),
    );
  };
  // A store in this process's memory counts at once (it cannot fail, so no fallback is needed).
  const hitNow = store.hitNow?.bind(store);
  return Object.assign(check, {
    /** The same count taken at once, or null when the store can only answer later. */
    now: hitNow
      ? (clientKey: string, weight = 1): RateLimitDecision =>
          decision(hitNow(storeKey(clientKey), windowMs, clock(), weight))
      : null,
  });
}
/** A limiter: counts and decides, later or (`now`, when its store can) at once. */
export type RateLimiter = ((clientKey: string, weight?: number) => Promise<RateLimitDecision>) & {
  now?: ((clientKey: string, weight?: number) => RateLimitDecision) | null;
};

const fallbackLogIntervalMs = 60_000;

/** The counts one policy keeps in this process while the shared store fails. */
class InProcessFallback {
  readonly #counts = new MemoryCounterStore();
  readonly #name: string;
  #since = 0;
  #loggedAt = 0;
  #hits = 0;

  constructor(name: string) {
    this.#name = name;
  }

  async hit(store: CounterStore, key: string, windowMs: number, now: number, weight: number): Promise<WindowCount> {
    let counted: WindowCount;
    try {
      counted = await store.hit(key, windowMs, now, weight);
    } catch (error) {
      this.#hits += 1;
      if (this.#since === 0) this.#since = Date.now();
      if (Date.now() - this.#loggedAt >= fallbackLogIntervalMs) {
        this.#loggedAt = Date.now();
        console.error(
          `[rate-limit] counter store unreachable: counting "${this.#name}" in this process until it answers (${this.#hits} hit(s) so far): ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      return this.#counts.hit(key, windowMs, now, weight);
    }
    if (this.#since !== 0) {
      console.info(
        `[rate-limit] counter store answers again: "${this.#name}" counted there after ${Math.round((Date.now() - this.#since) / 1000)} s in this process (${this.#hits} hit(s))`,
      );
      this.#since = 0;
      this.#loggedAt = 0;
      this.#hits = 0;
    }
    return counted;
  }
}

/** The headers of the contract plus the current draft's `RateLimit` field. */
export function rateLimitHeaders(policy: RateLimitPolicy, d: RateLimitDecision): Record<string, string> {
  const list = rateLimitList(policy, d);
  const headers: Record<string, string> = {};
  for (let i = 0; i < list.length; i += 2) headers[list[i]!] = list[i + 1]!;
  return headers;
}

/**
 * The same headers as a flat name, value list, in the same order (what a host writes without an
 * object per request). Shared and frozen: the lists a policy can give (a few thousand: remaining
 * by seconds to reset) are made once each.
 */
export function rateLimitList(policy: RateLimitPolicy, d: RateLimitDecision): readonly string[] {
  let lists = madeLists.get(policy);
  if (!lists) madeLists.set(policy, (lists = new Map<number, readonly string[]>()));
  // Every field of a decision in one number: the limit is the policy's unless a store said otherwise.
  const key =
    d.limit === policy.requests && d.resetSeconds < 100_000
      ? (d.remaining * 100_000 + d.resetSeconds) * 2 + (d.allowed ? 1 : 0)
      : -1;
  let list = key >= 0 ? lists.get(key) : undefined;
  if (!list) {
    list = Object.freeze(readLimitList(policy, d));
    if (key >= 0 && lists.size < 100_000) lists.set(key, list);
  }
  return list;
}

const madeLists = new WeakMap<RateLimitPolicy, Map<number, readonly string[]>>();

function readLimitList(policy: RateLimitPolicy, d: RateLimitDecision): string[] {
  const limit = String(d.limit);
  const remaining = String(d.remaining);
  const reset = String(d.resetSeconds);
  const list = [
    'RateLimit-Policy',
    `${policy.requests};w=${policy.windowSeconds}`,
    'RateLimit-Limit',
    limit,
    'RateLimit-Remaining',
    remaining,
    'RateLimit-Reset',
    reset,
    'RateLimit',
    `"default";r=${remaining};t=${reset}`,
    'X-RateLimit-Limit',
    limit,
    'X-RateLimit-Remaining',
    remaining,
    'X-RateLimit-Reset',
    reset,
  ];
  if (!d.allowed) list.push('Retry-After', reset);
  return list;
}
