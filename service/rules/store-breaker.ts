/**
 * A shared counter store (Redis over TCP, Upstash over HTTPS) behind a bound and a breaker, so a
 * store that is down or frozen costs the requests that count almost nothing:
 *
 *   - each call is bounded (`timeoutMs`): a server that accepts the bytes and never answers
 *     (paused, overloaded, a network that drops packets) holds a request at most that long;
 *   - the breaker opens when a call runs out of time, or after `failuresToOpen` failures in a row
 *     (a refused connection fails at once, so it may fail a few times first). While open, no
 *     call is made: each hit fails at once, and each policy's `whenStoreFails` applies
 *     (rate-limiter.ts), as for a store that is gone;
 *   - after `openMs` one call tries the store again, and the others still fail at once until it
 *     has answered: its success closes the breaker, its failure opens it for another `openMs`.
 *
 * A frozen store thus costs one bound when it freezes and then at most one per `openMs`, paid by
 * one request. What it did is counted (`stats`), for the tests and for operators' questions.
 */
import type { CounterStore, WindowCount } from './rate-limiter.ts';

export interface BreakerOptions {
  /** Longest one call may take, in milliseconds. */
  timeoutMs: number;
  /** Failures in a row that open the breaker; a call that runs out of time opens it at once. */
  failuresToOpen: number;
  /** How long the breaker stays open before one call tries the store again, in milliseconds. */
  openMs: number;
}

export const defaultBreaker: Omit<BreakerOptions, 'timeoutMs'> = { failuresToOpen: 3, openMs: 2000 };

/** Rejects when `promise` has not settled within `ms`; its late result is dropped. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expiry = new Promise<never>((_, reject) => {
    // setImmediate lets an answer that already arrived (but waited behind a busy event loop) win.
    timer = setTimeout(
      () => setImmediate(() => reject(new StoreTimeout(`no answer from ${what} within ${ms} ms`))),
      ms,
    );
  });
  return Promise.race([promise, expiry]).finally(() => clearTimeout(timer));
}

class StoreTimeout extends Error {
  override name = 'StoreTimeout';
}

/** A hit not tried because the breaker is open: the store failed just before. */
class BreakerOpen extends Error {
  override name = 'BreakerOpen';
}

export interface BreakerStats {
  /** Calls made to the store. */
  calls: number;
  /** Hits refused at once, without a call, while the breaker was open or a trial was under way. */
  refused: number;
  /** Times the breaker opened. */
  opened: number;
}

export class GuardedCounterStore implements CounterStore {
  readonly #store: CounterStore;
  readonly #options: BreakerOptions;
  readonly #what: string;
  readonly #now: () => number;
  #failures = 0;
  /** When the breaker opened; 0 while closed. */
  #openedAt = 0;
  #trying = false;
  #lastFailure = '';
  readonly stats: BreakerStats = { calls: 0, refused: 0, opened: 0 };

  constructor(store: CounterStore, what: string, options: BreakerOptions, now: () => number = Date.now) {
    this.#store = store;
    this.#what = what;
    this.#options = options;
    this.#now = now;
  }

  async hit(key: string, windowMs: number, now: number, weight = 1): Promise<WindowCount> {
    const trial = this.#openedAt !== 0;
    if (trial && (this.#trying || this.#now() - this.#openedAt < this.#options.openMs)) {
      this.stats.refused += 1;
      throw new BreakerOpen(`${this.#what} not asked: it failed just before (${this.#lastFailure})`);
    }
    if (trial) this.#trying = true;
    this.stats.calls += 1;
    const startedAt = this.#now();
    try {
      const count = await within(this.#store.hit(key, windowMs, now, weight), this.#options.timeoutMs, this.#what);
      this.#failures = 0;
      this.#openedAt = 0;
      return count;
    } catch (error) {
      // A store that gives up by itself at the bound (Upstash's own abort) ran out of time too.
      this.#failed(error, trial, error instanceof StoreTimeout || this.#now() - startedAt >= this.#options.timeoutMs);
      throw error;
    } finally {
      if (trial) this.#trying = false;
    }
  }

  #failed(error: unknown, trial: boolean, timedOut: boolean): void {
    this.#failures += 1;
    this.#lastFailure = error instanceof Error ? error.message : String(error);
    if (!trial && !timedOut && this.#failures < this.#options.failuresToOpen) return;
    // Calls already under way when it opened may fail after it: they keep it open, they do not open it again.
    if (trial || this.#openedAt === 0) this.stats.opened += 1;
    this.#openedAt = this.#now();
  }
}
