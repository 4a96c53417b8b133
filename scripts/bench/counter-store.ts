/**
 * Bench only, never used by the site: a CounterStore that records every hit in a window map,
 * as MemoryCounterStore does, but reports each hit as the first of its window. A load test sends
 * thousands of requests a second from one address; with this store the full request-rules path
 * still runs (key derivation, the store call, the headers) and nothing is refused with 429. It
 * answers at once (hitNow), as the in-process store does, so the host takes the same way through
 * the rules as with the real store and the split row differs from the headline by the counting
 * alone.
 */
import type { CounterStore, WindowCount } from '../../service/rules/rate-limiter.ts';

export class NeverLimitingCounterStore implements CounterStore {
  readonly #windows = new Map<string, { count: number; endsAt: number }>();
  /** Hits recorded since start, over every key. */
  hits = 0;

  async hit(key: string, windowMs: number, now: number, weight = 1): Promise<WindowCount> {
    return this.hitNow(key, windowMs, now, weight);
  }

  hitNow(key: string, windowMs: number, now: number, weight = 1): WindowCount {
    let window = this.#windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + windowMs };
      this.#windows.set(key, window);
    }
    window.count += weight;
    this.hits += weight;
    return { count: 1, resetMs: window.endsAt - now };
  }
}
