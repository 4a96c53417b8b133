/**
 * The counter store of a running process, chosen from the settings once and shared by the
 * request rules and every live function in that process: Upstash Redis over HTTPS when its
 * REST settings are given (any runtime), Redis over TCP when REDIS_URL is set (Node), otherwise
 * counts in this process's memory. Shared so that, on one Node host, the rules and the
 * functions count one client once, in one place.
 */
import { MemoryCounterStore, type CounterStore } from './rate-limiter.ts';
import { openHttpCounterStore } from './upstash-counter-store.ts';

type Env = Record<string, string | undefined>;

const key = Symbol.for('catalogue.counterStore');
const holder = globalThis as { [key]?: Promise<CounterStore> };

/** A counter store for these settings, of its own (memory when no shared store is configured). */
export async function openCounterStore(env: Env, hitTimeoutMs?: number): Promise<CounterStore> {
  const http = openHttpCounterStore(env, hitTimeoutMs);
  if (http) return http;
  if (env.REDIS_URL) {
    const { RedisCounterStore } = await import('./redis-counter-store.ts');
    return RedisCounterStore.connect(env.REDIS_URL, hitTimeoutMs ? { hitTimeoutMs } : {});
  }
  if (env.VERCEL === '1') console.warn('[rate-limit] no UPSTASH_REDIS_REST_URL/TOKEN (or KV_REST_API_URL/TOKEN): each instance counts alone');
  return new MemoryCounterStore();
}

/** This process's counter store; the first caller's settings choose it. */
export function sharedCounterStore(env: Env = process.env, options: { hitTimeoutMs?: number } = {}): Promise<CounterStore> {
  holder[key] ??= openCounterStore(env, options.hitTimeoutMs).catch((error: unknown) => {
    delete holder[key];
    throw error;
  });
  return holder[key];
}

/** Uses `store` as this process's counter store (a host that opened its own, or a test). */
export function useCounterStore(store: CounterStore): void {
  holder[key] = Promise.resolve(store);
}
