/**
 * Shared counters in a real redis-server (started here on a free loopback port): several
 * servers share one exact quota, a window ends when Redis expires it, and a Redis that is gone
 * or silent leaves the API answering (fail open) until counting resumes by itself.
 */
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { createClient, type RedisClientType } from 'redis';
import { startServer, type RunningServer } from '../helpers/project.ts';
import { startRedis, type RunningRedis } from '../helpers/redis.ts';
import { eventually } from '../helpers/eventually.ts';
import { newDataDir } from '../helpers/embedded-template.ts';

let redis: RunningRedis;
let admin: RedisClientType;
const started: RunningServer[] = [];

beforeAll(async () => {
  redis = await startRedis();
  admin = createClient({ url: redis.url, socket: { reconnectStrategy: () => 100 } });
  admin.on('error', () => undefined);
  await admin.connect();
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop()));
  await redis.start().catch(() => undefined); // a test may have stopped it
  await admin.flushAll();
});
afterAll(async () => {
  await admin?.close().catch(() => undefined);
  await redis?.remove();
});

async function server(): Promise<RunningServer> {
  const s = await startServer(inject('fixtureSite'), { REDIS_URL: redis.url, OPERATIONAL_STORAGE: 'off' });
  started.push(s);
  return s;
}

function remaining(res: Response): number | null {
  const value = res.headers.get('ratelimit-remaining');
  return value === null ? null : Number(value);
}

/** A GET read to its end. */
async function readGet(url: string): Promise<Response> {
  const res = await fetch(url);
  await res.arrayBuffer();
  return res;
}

async function until(check: () => Promise<boolean>, what: string, ms = 8000): Promise<void> {
  await eventually(async () => expect(await check(), `timed out waiting for ${what}`).toBe(true), {
    withinMs: ms,
    everyMs: 100,
  });
}

const outageLines = (s: RunningServer) =>
  s
    .output()
    .split('\n')
    .filter((l) => l.includes('counter store unavailable')).length;

// Each test starts servers; a busy machine needs more than the default 30 s.
describe('rate limits shared through Redis', { timeout: 90_000 }, () => {
  it('lets exactly 120 requests through two servers under concurrent load from one client IP', async () => {
    const [a, b] = await Promise.all([server(), server()]);
    const responses = await Promise.all(
      Array.from({ length: 160 }, (_, i) => fetch(`${(i % 2 ? a : b).url}/v1/trips`)),
    );
    const ok = responses.filter((r) => r.status === 200);
    expect(ok).toHaveLength(120);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(40);
    expect(ok.map((r) => remaining(r)).sort((x, y) => x! - y!)).toEqual(Array.from({ length: 120 }, (_, i) => i));
    // Both servers took part, and the count lives in Redis under the client's key.
    expect(new Set(ok.map((r) => r.url.slice(0, r.url.indexOf('/v1')))).size).toBe(2);
    expect(await admin.keys('rl:api:*')).toEqual(['rl:api:127.0.0.1']);
    expect(Number(await admin.get('rl:api:127.0.0.1'))).toBe(160);
    await Promise.all(responses.map((r) => r.arrayBuffer()));
  });

  it('restores the quota when the window ends (Redis expires the counter)', async () => {
    const s = await server();
    const first = await fetch(`${s.url}/v1/`);
    expect(first.headers.get('ratelimit-reset')).toBe('60');
    const ttl = await admin.pTTL('rl:api:127.0.0.1');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    await Promise.all(Array.from({ length: 119 }, () => fetch(`${s.url}/v1/`).then((r) => r.arrayBuffer())));
    const over = await fetch(`${s.url}/v1/`);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    // What sixty seconds would do: the window's counter expires.
    await admin.pExpire('rl:api:127.0.0.1', 1);
    await new Promise((r) => setTimeout(r, 20));
    const fresh = await fetch(`${s.url}/v1/`);
    expect(fresh.status).toBe(200);
    expect(remaining(fresh)).toBe(119);
    expect(fresh.headers.get('ratelimit-reset')).toBe('60');
  });

  it('keeps answering without rate-limit numbers while Redis is down, logs it once, and resumes counting', async () => {
    const s = await server();
    for (let i = 0; i < 3; i += 1) await readGet(`${s.url}/v1/`);
    expect(remaining(await readGet(`${s.url}/v1/`))).toBe(116);

    await redis.stop();
    const during = [...(await Promise.all(Array.from({ length: 20 }, () => readGet(`${s.url}/v1/trips`))))];
    for (let i = 0; i < 10; i += 1) during.push(await readGet(`${s.url}/v1/trips/no-such-trip`));
    // Answered while Redis is still down (it starts again only after): a hang would never answer.
    for (const res of during) {
      expect([200, 404]).toContain(res.status);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      for (const name of [
        'ratelimit',
        'ratelimit-remaining',
        'ratelimit-limit',
        'x-ratelimit-remaining',
        'retry-after',
      ])
        expect(res.headers.get(name)).toBeNull();
    }
    expect(outageLines(s)).toBe(1);

    await redis.start(); // empty: nothing was persisted
    await until(async () => remaining(await readGet(`${s.url}/v1/`)) !== null, 'counting to resume');
    const resumed = await readGet(`${s.url}/v1/`);
    expect(remaining(resumed)).toBeLessThanOrEqual(118);
    expect(resumed.headers.get('ratelimit-policy')).toBe('120;w=60');
    expect(s.output()).toContain('counter store reachable again');
    expect(outageLines(s)).toBe(1);
  });

  it('does not let a Redis that accepts connections but never answers hold requests', async () => {
    const s = await server();
    expect(remaining(await readGet(`${s.url}/v1/`))).toBe(119);
    redis.pause();
    try {
      const during = await Promise.all(Array.from({ length: 10 }, () => readGet(`${s.url}/v1/peaks`)));
      // Answered while Redis is still paused (it resumes only after): each hit gives up after 250 ms.
      for (const res of during) {
        expect(res.status).toBe(200);
        expect(res.headers.get('ratelimit-remaining')).toBeNull();
      }
    } finally {
      redis.resume();
    }
    await until(async () => remaining(await readGet(`${s.url}/v1/`)) !== null, 'counting to resume');
    expect(outageLines(s)).toBe(1);
  });

  it('with Redis killed, /v1 answers uncounted while enquiries and renders are counted in the process: 5 of 12 enquiries taken', async () => {
    // A copy of the new database: creating one is not what this test is about, and costs seconds of CPU.
    const dataDir = newDataDir('redis-killed-');
    const s = await startServer(inject('fixtureSite'), {
      REDIS_URL: redis.url,
      OPERATIONAL_STORAGE: 'embedded',
      DATA_DIR: dataDir,
    });
    started.push({ ...s, stop: async () => (await s.stop(), rmSync(dataDir, { recursive: true, force: true })) });
    expect(remaining(await readGet(`${s.url}/v1/`))).toBe(119);

    await redis.kill();
    const enquiry = JSON.stringify({
      tripSlug: 'sample-trek',
      name: 'Asha Rao',
      phone: '+91 98765 43210',
      groupSize: 2,
    });
    const answers: { status: number; id?: string; retryAfter: string | null }[] = [];
    for (let i = 0; i < 12; i += 1) {
      const res = await fetch(`${s.url}/api/bookings`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: enquiry,
      });
      const body = (await res.json()) as { enquiry?: { id: string } };
      answers.push({
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        ...(body.enquiry ? { id: body.enquiry.id } : {}),
      });
    }
    expect(answers.map((a) => a.status)).toEqual([...Array(5).fill(201), ...Array(7).fill(429)]);
    for (const a of answers.slice(5)) expect(Number(a.retryAfter)).toBeGreaterThan(0);
    // Each enquiry taken is stored (its page shows it) and delivered (its email is in the outbox).
    for (const { id } of answers.slice(0, 5)) {
      expect(await (await fetch(`${s.url}/enquiry-sent?ref=${id}`)).text()).toContain(id);
      expect(existsSync(path.join(dataDir, 'outbox', `${id}.eml`))).toBe(true);
    }
    // /v1 keeps answering, without rate-limit numbers.
    const v1 = await readGet(`${s.url}/v1/trips`);
    expect(v1.status).toBe(200);
    expect(remaining(v1)).toBeNull();
    // Fresh renders (a thank-you page is never kept) are counted too: 120 a minute, five shown above.
    const renders = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        fetch(`${s.url}/enquiry-sent?ref=enq-20260101-${String(i).padStart(10, 'a')}`).then((r) => r.status),
      ),
    );
    expect(renders.filter((status) => status === 429)).toHaveLength(5);
    expect(s.output()).toContain('[rate-limit] counter store unreachable: counting "bookings" in this process');
    expect(s.output()).toContain('[rate-limit] counter store unreachable: counting "render" in this process');

    // Back: counting returns to Redis (which starts empty).
    await redis.start();
    await until(async () => remaining(await readGet(`${s.url}/v1/`)) !== null, 'counting to resume');
    await until(async () => {
      await fetch(`${s.url}/api/bookings`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: enquiry,
      });
      return (await admin.keys('rl:bookings:*')).length === 1;
    }, 'enquiries to be counted in Redis again');
    expect(s.output()).toContain('[rate-limit] counter store answers again: "bookings" counted there');
  });

  it('starts and fails open when Redis is down at start, and counts once it appears', async () => {
    await redis.stop();
    const s = await server(); // starting at all is the point: it must not wait for Redis
    const res = await readGet(`${s.url}/v1/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-remaining')).toBeNull();
    await redis.start();
    await until(async () => remaining(await readGet(`${s.url}/v1/`)) !== null, 'counting to begin');
  });
});
