/**
 * What the /v1 quota adds to a request: the request rules plus the /v1 handler for
 * GET /v1/trips, without a limiter, with in-process counters and with a real redis-server on
 * loopback. HTTP parsing is left out, so the limiter's share shown here is an upper bound.
 * Run: npx vitest bench --run tests/rate-limit
 */
import { afterAll, bench, describe } from 'vitest';
import { applyRules } from '../../service/rules/index.ts';
import { apiRateLimit } from '../../service/rules/policy.ts';
import { createRateLimiter, MemoryCounterStore, type RateLimiter } from '../../service/rules/rate-limiter.ts';
import { RedisCounterStore } from '../../service/rules/redis-counter-store.ts';
import { handleV1 } from '../../service/v1/index.ts';
import { loadCatalogue } from '../helpers/content.ts';
import { startRedis } from '../helpers/redis.ts';

const deps = { catalogue: loadCatalogue(), departures: null };
const redis = await startRedis();
const redisStore = await RedisCounterStore.connect(redis.url);
afterAll(async () => {
  await redisStore.close();
  await redis.remove();
});

// A new client address per request keeps every request under quota, so each one is served.
let client = 0;
const nextAddress = () => {
  client += 1;
  return `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`;
};

async function serve(apiLimiter: RateLimiter | null): Promise<void> {
  const request = new Request('http://127.0.0.1/v1/trips');
  const outcome = await applyRules(request, {
    siteUrl: 'http://127.0.0.1',
    apiLimiter,
    trustProxy: 'none',
    socketAddress: nextAddress(),
  });
  if (outcome.kind !== 'continue') throw new Error('unexpectedly refused');
  const response = await handleV1(request, deps);
  if (response.status !== 200) throw new Error(`status ${response.status}`);
  await response.arrayBuffer();
}

const inProcess = createRateLimiter(apiRateLimit, new MemoryCounterStore());
const shared = createRateLimiter(apiRateLimit, redisStore);

describe('GET /v1/trips: rules and handler', () => {
  bench('no limiter', () => serve(null), { time: 2000 });
  bench('in-process counters', () => serve(inProcess), { time: 2000 });
  bench('Redis counters (loopback)', () => serve(shared), { time: 2000 });
});
