/**
 * Bench only, never used by the site: a CounterStore that records every hit in a window map,
 * as MemoryCounterStore does, but reports each hit as the first of its window. A load test sends
 * thousands of requests a second from one address; with this store the full request-rules path
 * still runs (key derivation, the store call, the headers) and nothing is refused with 429.
 */
import type { CounterStore, WindowCount } from '../../service/rules/rate-limiter.ts';

export class NeverLimitingCounterStore implements CounterStore {
  readonly #windows = new Map<string, { count: number; endsAt: number }>();
  /** Hits recorded since start, over every key. */
  hits = 0;

  async hit(key: string, windowMs: number, now: number, weight = 1): Promise<WindowCount> {
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
