/**
 * Rate-limit counters in Redis over TCP (node-redis), shared by every Node instance that points
 * at the same server. Each hit is the atomic window script (window-script.ts), bounded by a
 * short timeout so a slow or silent Redis costs a request at most that long before the rules
 * fail open. Not for the routing middleware, whose every instance would carry and connect a TCP
 * client: see upstash-counter-store.ts there.
 */
import { createClient, type RedisClientType } from 'redis';
import type { CounterStore, WindowCount } from './rate-limiter.ts';
import { windowCountFromReply, windowHitScript } from './window-script.ts';

export interface RedisCounterStoreOptions {
  /** Longest a hit may take, in milliseconds. */
  hitTimeoutMs?: number;
  /** Longest connect() waits for the first connection before returning anyway. */
  readyWithinMs?: number;
}

/** Rejects when `promise` has not settled within `ms`; its late result is dropped. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expiry = new Promise<never>((_, reject) => {
    // setImmediate lets a reply that already arrived (but waited behind a busy event loop) win.
    timer = setTimeout(() => setImmediate(() => reject(new Error(`no answer from Redis within ${ms} ms`))), ms);
  });
  return Promise.race([promise, expiry]).finally(() => clearTimeout(timer));
}

export class RedisCounterStore implements CounterStore {
  readonly #client: RedisClientType;
  readonly #hitTimeoutMs: number;

  constructor(client: RedisClientType, hitTimeoutMs = 250) {
    this.#client = client;
    this.#hitTimeoutMs = hitTimeoutMs;
  }

  /**
   * Connects and reconnects in the background for as long as the process lives. Waits briefly
   * for the first connection, so a fresh server counts from its first request; a Redis that is
   * down at start (or later) means failing open until it is back, never failing to start.
   */
  static async connect(
    url: string,
    { hitTimeoutMs = 250, readyWithinMs = 1000 }: RedisCounterStoreOptions = {},
  ): Promise<RedisCounterStore> {
    const client: RedisClientType = createClient({
      url,
      socket: { connectTimeout: 1000, reconnectStrategy: (retries) => Math.min(50 + retries * 200, 2000) },
      // Fail at once while disconnected, and when a silent server has let hits pile up,
      // instead of queueing requests behind it.
      disableOfflineQueue: true,
      commandsQueueMaxLength: 1000,
    });
    client.on('error', () => undefined); // reported by the rules, once per interval, when a hit fails
    const connected = client.connect().catch(() => undefined);
    await within(connected, readyWithinMs).catch(() => undefined);
    return new RedisCounterStore(client, hitTimeoutMs);
  }

  async hit(key: string, windowMs: number, _now?: number, weight = 1): Promise<WindowCount> {
    // node-redis's own command timeout stops once a command is written; a server that accepts
    // the bytes and never answers (paused, overloaded) would hold the request without this.
    const reply = await within(
      this.#client.eval(windowHitScript, { keys: [key], arguments: [String(windowMs), String(weight)] }),
      this.#hitTimeoutMs,
    );
    return windowCountFromReply(reply);
  }

  async close(): Promise<void> {
    await this.#client.close().catch(() => undefined);
  }
}
