/**
 * Rate-limit counters in Redis over TCP (node-redis), shared by every Node instance that points
 * at the same server. Each hit is the atomic window script (window-script.ts); the bound on each
 * hit and the breaker that stops asking a failing Redis are store-breaker.ts's, around this store
 * (counter-stores.ts). Not for the routing middleware, whose every instance would carry and
 * connect a TCP client: see upstash-counter-store.ts there.
 */
import { createClient, type RedisClientType } from 'redis';
import type { CounterStore, WindowCount } from './rate-limiter.ts';
import { within } from './store-breaker.ts';
import { windowCountFromReply, windowHitScript } from './window-script.ts';

export interface RedisCounterStoreOptions {
  /** Longest connect() waits for the first connection before returning anyway. */
  readyWithinMs?: number;
}

export class RedisCounterStore implements CounterStore {
  readonly #client: RedisClientType;

  constructor(client: RedisClientType) {
    this.#client = client;
  }

  /**
   * Connects and reconnects in the background for as long as the process lives. Waits briefly
   * for the first connection, so a fresh server counts from its first request; a Redis that is
   * down at start (or later) means failing open until it is back, never failing to start.
   */
  static async connect(
    url: string,
    { readyWithinMs = 1000 }: RedisCounterStoreOptions = {},
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
    await within(connected, readyWithinMs, 'Redis').catch(() => undefined);
    return new RedisCounterStore(client);
  }

  async hit(key: string, windowMs: number, _now?: number, weight = 1): Promise<WindowCount> {
    // node-redis's own command timeout stops once a command is written; a server that accepts
    // the bytes and never answers (paused, overloaded) is bounded by the breaker around this store.
    const reply = await this.#client.eval(windowHitScript, {
      keys: [key],
      arguments: [String(windowMs), String(weight)],
    });
    return windowCountFromReply(reply);
  }

  async close(): Promise<void> {
    await this.#client.close().catch(() => undefined);
  }
}
