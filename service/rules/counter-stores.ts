/**
 * The counter store of a running instance, chosen from the settings once and shared by the
 * request rules and every live function of the instance (service/functions/runtime.ts): Upstash
 * Redis over HTTPS when its REST settings are given (any runtime), Redis over TCP when REDIS_URL
 * is set (Node), otherwise counts in this process's memory. Shared so that, on one Node host, the
 * rules and the functions count one client once, in one place. A shared store is behind a bound
 * and a breaker (store-breaker.ts), so a store that is down or frozen does not hold the requests
 * it counts.
 */
import type { CounterSettings } from '../middleware-settings.ts';
import { MemoryCounterStore, type CounterStore } from './rate-limiter.ts';
import { defaultBreaker, GuardedCounterStore, type BreakerOptions } from './store-breaker.ts';
import { openHttpCounterStore } from './upstash-counter-store.ts';

/** The bound on one hit of Redis over TCP on a Node host: a round trip is a millisecond or two. */
const redisTimeoutMs = 250;

/** A counter store for these settings, of its own (memory when no shared store is configured). */
export async function openCounterStore(
  counters: CounterSettings,
  breaker: Partial<BreakerOptions> = {},
): Promise<CounterStore> {
  const http = openHttpCounterStore(counters.upstash, breaker);
  if (http) return http;
  if (counters.redisUrl) {
    const { RedisCounterStore } = await import('./redis-counter-store.ts');
    return new GuardedCounterStore(await RedisCounterStore.connect(counters.redisUrl), 'Redis', {
      timeoutMs: redisTimeoutMs,
      ...defaultBreaker,
      ...breaker,
    });
  }
  if (counters.onVercel)
    console.warn('[rate-limit] no UPSTASH_REDIS_REST_URL/TOKEN (or KV_REST_API_URL/TOKEN): each instance counts alone');
  return new MemoryCounterStore();
}
