/**
 * Rate-limit counters in Redis over HTTPS (Upstash's REST protocol), for the Vercel edge
 * runtime, which has fetch but no TCP sockets. Each hit is the same atomic window script as the
 * TCP store, sent with EVAL, so every edge instance and region shares one exact count.
 */
import { Redis } from '@upstash/redis';
import type { CounterStore, WindowCount } from './rate-limiter.ts';
import { windowCountFromReply, windowHitScript } from './window-script.ts';

export interface UpstashCounterStoreOptions {
  url: string;
  token: string;
  /** Longest a hit may take, in milliseconds: HTTPS, and a new edge instance's first TLS handshake, included. */
  hitTimeoutMs?: number;
}

export class UpstashCounterStore implements CounterStore {
  readonly #redis: Redis;

  constructor({ url, token, hitTimeoutMs = 1000 }: UpstashCounterStoreOptions) {
    this.#redis = new Redis({
      url,
      token,
      // One attempt, bounded: a retry loop or an unbounded fetch would hold the request hostage.
      retry: { retries: 0 },
      // A signal factory makes an abort throw; a plain AbortSignal would resolve with "Aborted".
      signal: () => AbortSignal.timeout(hitTimeoutMs),
      enableAutoPipelining: false,
      enableTelemetry: false,
    });
  }

  async hit(key: string, windowMs: number, _now?: number, weight = 1): Promise<WindowCount> {
    return windowCountFromReply(await this.#redis.eval(windowHitScript, [key], [String(windowMs), String(weight)]));
  }
}

/** The REST settings, under Upstash's names or the Vercel Marketplace's; null when absent. */
export function upstashSettings(env: Record<string, string | undefined>): { url: string; token: string } | null {
  // Pasted values often bring a trailing newline along.
  const url = (env.UPSTASH_REDIS_REST_URL || env.KV_REST_API_URL)?.trim();
  const token = (env.UPSTASH_REDIS_REST_TOKEN || env.KV_REST_API_TOKEN)?.trim();
  return url && token ? { url, token } : null;
}
