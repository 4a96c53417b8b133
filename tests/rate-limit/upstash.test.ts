/**
 * The Vercel host (middleware.ts) with counters in Redis over Upstash's REST protocol: a real
 * redis-server behind a loopback translator of that protocol (tests/helpers/upstash-rest.ts).
 * Each middleware instance stands for one edge instance; they share the quota through Redis.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type RedisClientType } from 'redis';
import { requestRulesMiddleware } from '../../middleware.ts';
import { freePort } from '../helpers/project.ts';
import { startRedis, type RunningRedis } from '../helpers/redis.ts';
import { startUpstashRest, type UpstashRest } from '../helpers/upstash-rest.ts';
import { eventually } from '../helpers/eventually.ts';

let redis: RunningRedis;
let rest: UpstashRest;
let admin: RedisClientType;

beforeAll(async () => {
  redis = await startRedis();
  rest = await startUpstashRest(redis.url);
  admin = createClient({ url: redis.url });
  admin.on('error', () => undefined);
  await admin.connect();
});
afterEach(async () => {
  redis.resume();
  await admin.flushAll();
});
afterAll(async () => {
  await rest?.close();
  await admin?.close().catch(() => undefined);
  await redis?.remove();
});

const client = '203.0.113.50';
const site = 'https://catalogue.example';

function edgeRequest(path: string, ip = client): Request {
  // What Vercel hands the edge function: its own client-IP header, whatever the client sent.
  return new Request(`${site}${path}`, { headers: { 'x-real-ip': ip, 'x-forwarded-for': ip } });
}

function upstashEnv(names: 'upstash' | 'marketplace', url = rest.url, token = rest.token) {
  return names === 'upstash'
    ? { SITE_URL: site, UPSTASH_REDIS_REST_URL: url, UPSTASH_REDIS_REST_TOKEN: token }
    : { SITE_URL: site, KV_REST_API_URL: url, KV_REST_API_TOKEN: token };
}

function remaining(res: Response): number | null {
  const value = res.headers.get('ratelimit-remaining');
  return value === null ? null : Number(value);
}

/** Passed on to static files or the function (Vercel's middleware protocol), with no numbers. */
/**
 * Let through, in Vercel's middleware protocol: on to the filesystem and functions as it is, or
 * rewritten (a plain GET of a /v1 answer goes to its published file).
 */
function passedOn(res: Response): boolean {
  return res.headers.get('x-middleware-next') === '1' || res.headers.get('x-middleware-rewrite') !== null;
}

function expectFailedOpen(res: Response): void {
  expect(res.status).toBe(200);
  expect(passedOn(res)).toBe(true);
  for (const name of ['ratelimit', 'ratelimit-remaining', 'x-ratelimit-remaining', 'retry-after'])
    expect(res.headers.get(name)).toBeNull();
}

describe('edge middleware with counters over the Upstash REST protocol', () => {
  it('lets exactly 120 requests through two edge instances, under either pair of setting names', async () => {
    // Generous hit timeouts: this test is about exact counting, and a busy test machine can
    // take longer than production's bound to answer 150 concurrent hits.
    const a = requestRulesMiddleware(upstashEnv('upstash'), { breaker: { timeoutMs: 10_000 } });
    const b = requestRulesMiddleware(upstashEnv('marketplace'), { breaker: { timeoutMs: 10_000 } });
    const before = rest.requests['/'] ?? 0;
    const responses = await Promise.all(
      Array.from({ length: 150 }, (_, i) => (i % 2 ? a : b)(edgeRequest('/v1/trips'))),
    );
    const passed = responses.filter(passedOn);
    expect(passed).toHaveLength(120);
    expect(passed.map((r) => remaining(r)).sort((x, y) => x! - y!)).toEqual(Array.from({ length: 120 }, (_, i) => i));
    const refused = responses.filter((r) => r.status === 429);
    expect(refused).toHaveLength(30);
    for (const res of refused) {
      expect(res.headers.get('ratelimit-remaining')).toBe('0');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const body = await res.json();
      expect(body.error).toMatchObject({ code: 'rate_limited', status: 429 });
      expect(body.error.documentationUrl).toBe(`${site}/developers#errors`);
    }
    expect(Number(await admin.get(`rl:api:${client}`))).toBe(150);
    expect((rest.requests['/'] ?? 0) - before).toBe(150); // one EVAL per request
  });

  it('counts each client IP apart and restores the quota when the window ends', async () => {
    const edge = requestRulesMiddleware(upstashEnv('upstash'), { breaker: { timeoutMs: 10_000 } });
    await Promise.all(Array.from({ length: 120 }, () => edge(edgeRequest('/v1/'))));
    expect((await edge(edgeRequest('/v1/'))).status).toBe(429);
    expect(remaining(await edge(edgeRequest('/v1/', '198.51.100.9')))).toBe(119);
    const ttl = await admin.pTTL(`rl:api:${client}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);

    await admin.pExpire(`rl:api:${client}`, 1); // what sixty seconds would do
    await new Promise((r) => setTimeout(r, 20));
    const fresh = await edge(edgeRequest('/v1/'));
    expect(passedOn(fresh)).toBe(true);
    expect(remaining(fresh)).toBe(119);
    expect(fresh.headers.get('ratelimit-reset')).toBe('60');
  });

  it('leaves paths outside /v1 uncounted', async () => {
    const edge = requestRulesMiddleware(upstashEnv('upstash'));
    const before = rest.requests['/'] ?? 0;
    for (const path of ['/', '/robots.txt', '/treks/sample-trek', '/api/bookings']) {
      const res = await edge(edgeRequest(path));
      expect(res.status, path).toBe(200);
      expect(res.headers.get('ratelimit-policy'), path).toBeNull();
    }
    expect(rest.requests['/'] ?? 0).toBe(before);
    expect(await admin.keys('rl:*')).toEqual([]);
  });

  it('fails open when the REST endpoint refuses, rejects the token or stays silent', async () => {
    const closedPort = await freePort();
    const unreachable = requestRulesMiddleware(upstashEnv('upstash', `http://127.0.0.1:${closedPort}`));
    const wrongToken = requestRulesMiddleware(upstashEnv('upstash', rest.url, 'not-the-token'));
    const silent = requestRulesMiddleware(upstashEnv('upstash'), { breaker: { openMs: 200 } });
    for (const edge of [unreachable, wrongToken]) expectFailedOpen(await edge(edgeRequest('/v1/trips')));

    redis.pause(); // the translator now waits on Redis for ever
    // Answered while Redis is still paused: each hit gave up at its bound (1000 ms) instead of waiting.
    const during = await Promise.all(Array.from({ length: 5 }, () => silent(edgeRequest('/v1/trips'))));
    during.forEach(expectFailedOpen);
    redis.resume();

    await eventually(async () => expect(remaining(await silent(edgeRequest('/v1/trips')))).not.toBeNull(), {
      withinMs: 5000,
      everyMs: 0,
    });
  });

  it('asks a frozen Redis at most once per breaker window, failing open at once in between', async () => {
    const openMs = 1000;
    const edge = requestRulesMiddleware(upstashEnv('upstash'), { breaker: { timeoutMs: 100, openMs } });
    expect(remaining(await edge(edgeRequest('/v1/trips', '203.0.113.60')))).toBe(119);
    const asked = () => rest.requests['/'] ?? 0;
    const before = asked();
    redis.pause();
    const started = Date.now();
    let sent = 0;
    while (Date.now() - started < 3 * openMs) {
      expectFailedOpen(await edge(edgeRequest('/v1/trips', '203.0.113.60')));
      sent += 1;
    }
    const frozenMs = Date.now() - started;
    redis.resume();
    // One request to the REST endpoint when it froze, then at most one trial per window.
    expect(asked() - before, `${asked() - before} requests in ${frozenMs} ms`).toBeLessThanOrEqual(
      1 + Math.ceil(frozenMs / openMs),
    );
    expect(sent).toBeGreaterThan(2 * (asked() - before));
  });

  it('without REST settings, or with a malformed URL, counts in each edge instance alone', async () => {
    const a = requestRulesMiddleware({ SITE_URL: site });
    const b = requestRulesMiddleware({ SITE_URL: site, KV_REST_API_URL: 'example.upstash.io', KV_REST_API_TOKEN: 't' });
    expect(remaining(await a(edgeRequest('/v1/')))).toBe(119);
    expect(remaining(await a(edgeRequest('/v1/')))).toBe(118);
    expect(remaining(await b(edgeRequest('/v1/')))).toBe(119);
  });

  it('accepts settings pasted with surrounding whitespace', async () => {
    const edge = requestRulesMiddleware(upstashEnv('upstash', `${rest.url}\n`, ` ${rest.token}\n`));
    expect(remaining(await edge(edgeRequest('/v1/')))).toBe(119);
    expect(Number(await admin.get(`rl:api:${client}`))).toBe(1);
  });
});
