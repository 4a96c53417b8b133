/**
 * Rate-limit counters in Redis, shared by every instance. One Lua script increments the
 * window's counter and sets its expiry in a single atomic step, so concurrent requests on
 * several servers can never both take the last slot.
 */
import { createClient, type RedisClientType } from 'redis';
import type { CounterStore, WindowCount } from './rate-limiter.ts';

const hitScript = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return { count, ttl }
`;

export class RedisCounterStore implements CounterStore {
  readonly #client: RedisClientType;

  constructor(client: RedisClientType) {
    this.#client = client;
  }

  static async connect(url: string, timeoutMs = 500): Promise<RedisCounterStore> {
    const client: RedisClientType = createClient({
      url,
      socket: { connectTimeout: timeoutMs, reconnectStrategy: (retries) => Math.min(retries * 200, 2000) },
      // Fail fast while disconnected instead of queueing requests behind a dead server.
      disableOfflineQueue: true,
    });
    client.on('error', () => undefined); // reported by the rules when a hit fails
    await client.connect().catch(() => undefined);
    return new RedisCounterStore(client);
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const reply = (await this.#client.eval(hitScript, { keys: [key], arguments: [String(windowMs)] })) as [number, number];
    return { count: Number(reply[0]), resetMs: Number(reply[1]) };
  }

  async close(): Promise<void> {
    await this.#client.quit().catch(() => undefined);
  }
}
