/**
 * Rate-limit counters in Redis over HTTPS (Upstash's REST protocol), for Vercel: the routing
 * middleware and the functions count over fetch, without a TCP connection per instance. Each hit
 * is the same atomic window script as the TCP store, sent with EVAL, so every instance and region
 * shares one exact count.
 */
import type { Redis } from '@upstash/redis';
import { MemoryCounterStore, type CounterStore, type WindowCount } from './rate-limiter.ts';
import { defaultBreaker, GuardedCounterStore, type BreakerOptions } from './store-breaker.ts';
import { windowCountFromReply, windowHitScript } from './window-script.ts';

/** The bound on one hit over HTTPS: a new instance's first TLS handshake included. */
const upstashTimeoutMs = 1000;

interface UpstashCounterStoreOptions {
  url: string;
  token: string;
  /** Longest a hit may take, in milliseconds: HTTPS, and a new instance's first TLS handshake, included. */
  hitTimeoutMs?: number;
}

class UpstashCounterStore implements CounterStore {
  readonly #options: Required<UpstashCounterStoreOptions>;
  /** The client, loaded at the first hit: a process that never counts never loads it (middleware.ts). */
  #redis: Promise<Redis> | undefined;

  constructor({ url, token, hitTimeoutMs = upstashTimeoutMs }: UpstashCounterStoreOptions) {
    // The client's own check, made now: settings it would refuse are refused at start.
    if (!/^https?:\/\/[^\s#$./?].\S*$/.test(url.replace(/\/$/, ''))) throw new Error(`not an https URL: ${url}`);
    this.#options = { url, token, hitTimeoutMs };
  }

  #client(): Promise<Redis> {
    const { url, token, hitTimeoutMs } = this.#options;
    this.#redis ??= import('@upstash/redis').then(
      ({ Redis }) =>
        new Redis({
          url,
          token,
          // One attempt, bounded: a retry loop or an unbounded fetch would hold the request hostage.
          retry: { retries: 0 },
          // A signal factory makes an abort throw; a plain AbortSignal would resolve with "Aborted".
          signal: () => AbortSignal.timeout(hitTimeoutMs),
          enableAutoPipelining: false,
          enableTelemetry: false,
        }),
    );
    return this.#redis;
  }

  async hit(key: string, windowMs: number, _now?: number, weight = 1): Promise<WindowCount> {
    const redis = await this.#client();
    return windowCountFromReply(await redis.eval(windowHitScript, [key], [String(windowMs), String(weight)]));
  }
}

/**
 * The counter store reached over HTTPS (Upstash) when configured (service/config.ts reads its
 * settings), behind the bound and breaker of store-breaker.ts, else null. The routing middleware
 * uses only this one, so it does not carry a TCP Redis client (see middleware.ts).
 */
export function openHttpCounterStore(
  upstash: { url: string; token: string } | null,
  breaker: Partial<BreakerOptions> = {},
): CounterStore | null {
  if (!upstash) return null;
  const options = { timeoutMs: upstashTimeoutMs, ...defaultBreaker, ...breaker };
  try {
    // The client's own abort frees the request's socket; the breaker's bound is the same.
    const store = new UpstashCounterStore({ ...upstash, hitTimeoutMs: options.timeoutMs });
    return new GuardedCounterStore(store, 'Upstash', options);
  } catch (error) {
    // A malformed URL must not take every request down with it.
    console.error(
      `[rate-limit] Upstash settings rejected, counting in this process: ${error instanceof Error ? error.message : String(error)}`,
    );
    return new MemoryCounterStore();
  }
}
