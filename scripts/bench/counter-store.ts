/**
 * Bench only, never used by the site: the in-process MemoryCounterStore, counting every hit in
 * its windows as the site's does, but reporting each hit as the first of its window. A load test
 * sends thousands of requests a second from one address; with this store the full request-rules
 * path still runs (key derivation, the store call, the headers) and nothing is refused with 429.
 * It answers at once (hitNow) as the in-process store does, so the host takes the same way through
 * the rules as with the real store and the split row differs from the headline by the counting
 * alone.
 */
import { MemoryCounterStore, type WindowCount } from '../../service/rules/rate-limiter.ts';

export class NeverLimitingCounterStore extends MemoryCounterStore {
  /** Hits recorded since start, over every key. */
  hits = 0;

  override hitNow(key: string, windowMs: number, now: number, weight = 1): WindowCount {
    const { resetMs } = super.hitNow(key, windowMs, now, weight);
    this.hits += weight;
    return { count: 1, resetMs };
  }
}
