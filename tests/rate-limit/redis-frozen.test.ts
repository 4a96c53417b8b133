/**
 * A Redis that freezes (a real redis-server stopped with SIGSTOP: it keeps the connection and
 * never answers) behind a server: the bound on each hit and the breaker around the counter store
 * (service/rules/store-breaker.ts), both lowered through the store's options. What is checked is
 * what the breaker did, never how long anything took: how many calls reached the frozen Redis
 * (counted by Redis itself once it runs again), and which policy answered meanwhile (/v1 uncounted,
 * fresh renders counted in the server's own memory).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createClient, type RedisClientType } from 'redis';
import { openCounterStore } from '../../service/rules/counter-stores.ts';
import type { GuardedCounterStore } from '../../service/rules/store-breaker.ts';
import { eventually } from '../helpers/eventually.ts';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { clientAt } from '../helpers/loopback-client.ts';
import { startRedis, type RunningRedis } from '../helpers/redis.ts';

const timeoutMs = 100;
const openMs = 1000;

let redis: RunningRedis;
let admin: RedisClientType;
let store: GuardedCounterStore;
let server: InProcessServer;

beforeAll(async () => {
  redis = await startRedis();
  admin = createClient({ url: redis.url });
  admin.on('error', () => undefined);
  await admin.connect();
  const counters = { upstash: null, redisUrl: redis.url, onVercel: false };
  store = (await openCounterStore(counters, { timeoutMs, openMs })) as GuardedCounterStore;
  server = await startInProcess(
    inject('fixtureSite'),
    { REDIS_URL: redis.url, OPERATIONAL_STORAGE: 'off' },
    { counterStore: store },
  );
});
afterAll(async () => {
  redis?.resume();
  await server?.stop();
  await admin?.close().catch(() => undefined);
  await redis?.remove();
});

/** EVAL calls Redis has run since its statistics were reset: each hit is one. */
async function evalCalls(): Promise<number> {
  const info = await admin.info('commandstats');
  return Number(/cmdstat_eval:calls=(\d+)/.exec(info)?.[1] ?? 0);
}

describe('a frozen Redis behind the breaker', { timeout: 60_000 }, () => {
  it('is asked at most once per breaker window while the policies answer on their own', async () => {
    const api = clientAt();
    const renders = clientAt();
    const counted = await api(`${server.url}/v1/trips`);
    expect(counted.headers.get('ratelimit-remaining')).toBe('119');
    await admin.configResetStat();
    const before = { ...store.stats };

    redis.pause();
    const started = Date.now();
    const v1: Response[] = [];
    const renderStatuses: number[] = [];
    try {
      // Three breaker windows of requests, one after another: the /v1 quota fails open, the
      // render quota counts in the server's memory (its 120 a minute still hold).
      for (let i = 0; Date.now() - started < 3 * openMs; i += 1) {
        v1.push(await api(`${server.url}/v1/trips`));
        const ref = `enq-20260101-${String(i).padStart(10, 'a')}`;
        renderStatuses.push((await renders(`${server.url}/enquiry-sent?ref=${ref}`)).status);
      }
      while (renderStatuses.length < 125)
        renderStatuses.push(
          (
            await renders(
              `${server.url}/enquiry-sent?ref=enq-20260101-${String(renderStatuses.length).padStart(10, 'b')}`,
            )
          ).status,
        );
    } finally {
      redis.resume();
    }
    const frozenMs = Date.now() - started;
    const calls = store.stats.calls - before.calls;
    const refused = store.stats.refused - before.refused;

    // One call when it froze, then at most one trial per window (a trial that fails opens it again).
    const allowed = 1 + Math.ceil(frozenMs / openMs);
    expect(calls, `${calls} calls in ${frozenMs} ms`).toBeLessThanOrEqual(allowed);
    expect(store.stats.opened - before.opened).toBeGreaterThanOrEqual(1);
    // Every other hit was refused at once, without a call.
    expect(calls + refused).toBe(v1.length + renderStatuses.length);
    expect(refused).toBeGreaterThan(2 * calls);
    // Redis itself ran exactly the calls made, once it could: none was made past the breaker.
    await eventually(async () => expect(await evalCalls()).toBe(calls));

    // /v1 answered uncounted (its policy: fail open, without rate-limit numbers).
    for (const res of v1) {
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-remaining')).toBeNull();
    }
    // Fresh renders were counted in the process: 120 a minute, then 429.
    expect(renderStatuses.slice(0, 120)).not.toContain(429);
    expect(new Set(renderStatuses.slice(120))).toEqual(new Set([429]));

    // Redis answers again: the next trial closes the breaker and counting is back in Redis.
    await eventually(
      async () => {
        const res = await api(`${server.url}/v1/trips`);
        expect(res.headers.get('ratelimit-remaining')).not.toBeNull();
      },
      3 * openMs + 2000,
    );
  });
});
