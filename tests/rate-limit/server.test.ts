/**
 * The /v1 quota through the local server (in-process counters). One server for the file: each
 * test asks from loopback addresses of its own (tests/helpers/loopback-client.ts), so each
 * starts from a full quota and none leaks into another. Windows are 60 s; restoring the quota
 * in a new window is shown by the unit tests (injected clock) and against Redis.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { errorBody } from '../../service/http/error-body.ts';
import { clientAt, type ClientFetch } from '../helpers/loopback-client.ts';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';

let server: InProcessServer;
/** The same site behind Vercel, where the client is the one Vercel's header names. */
let behindVercel: InProcessServer;
beforeAll(async () => {
  // No departures database: these tests never read it, and it would only slow the start.
  [server, behindVercel] = await Promise.all([
    startInProcess(inject('fixtureSite'), { OPERATIONAL_STORAGE: 'off' }),
    startInProcess(inject('fixtureSite'), { OPERATIONAL_STORAGE: 'off', TRUST_PROXY: 'vercel' }),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all([server?.stop(), behindVercel?.stop()]);
});

const limitHeaders = [
  'ratelimit-policy',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'ratelimit',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
];

function remaining(res: Response): number {
  return Number(res.headers.get('ratelimit-remaining'));
}

/** Checks every rate-limit header of a /v1 response and that they agree with one another. */
function expectLimitHeaders(res: Response, label: string): void {
  for (const name of limitHeaders) expect(res.headers.get(name), `${label}: ${name}`).not.toBeNull();
  const h = (name: string) => res.headers.get(name);
  expect(h('ratelimit-policy'), label).toBe('120;w=60');
  expect(h('ratelimit-limit'), label).toBe('120');
  expect(h('x-ratelimit-limit'), label).toBe('120');
  expect(h('x-ratelimit-remaining'), label).toBe(h('ratelimit-remaining'));
  expect(h('x-ratelimit-reset'), label).toBe(h('ratelimit-reset'));
  const reset = Number(h('ratelimit-reset'));
  expect(Number.isInteger(reset) && reset >= 1 && reset <= 60, `${label}: reset ${reset}`).toBe(true);
  expect(h('ratelimit'), label).toBe(`"default";r=${h('ratelimit-remaining')};t=${reset}`);
}

async function exhaust(client: ClientFetch): Promise<void> {
  for (let i = 1; i <= 120; i += 1) {
    const res = await client(`${server.url}/v1/trips`);
    expect(res.status).toBe(200);
    expect(remaining(res)).toBe(120 - i);
    await res.arrayBuffer();
  }
}

async function expectRateLimited(res: Response): Promise<void> {
  expect(res.status).toBe(429);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expectLimitHeaders(res, '429');
  expect(res.headers.get('ratelimit-remaining')).toBe('0');
  const retryAfter = res.headers.get('retry-after') ?? '';
  expect(retryAfter).toMatch(/^[1-9]\d*$/);
  expect(Number(retryAfter)).toBeLessThanOrEqual(60);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(Number(res.headers.get('ratelimit-reset')));
  expect(res.headers.get('access-control-expose-headers')).toContain('Retry-After');
  const body = errorBody.parse(await res.json());
  expect(body.error).toMatchObject({ code: 'rate_limited', status: 429 });
  expect(body.error.hint).toMatch(/wait/i);
  expect(body.error.hint).toMatch(/retry/i);
}

describe('the /v1 quota on the local server', () => {
  it('answers the 121st request in a window with 429 rate_limited, Retry-After and a hint', async () => {
    const client = clientAt();
    await exhaust(client);
    await expectRateLimited(await client(`${server.url}/v1/trips`));
    // Another address has its own quota.
    expect(remaining(await clientAt()(`${server.url}/v1/trips`))).toBe(119);
  });

  it('puts the headers on every /v1 response, whatever its status, and counts each one', async () => {
    const client = clientAt();
    const first = await client(`${server.url}/v1/trips`);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    const cases: [string, string, Parameters<ClientFetch>[1], number][] = [
      ['service index', '/v1/', {}, 200],
      ['HEAD', '/v1/peaks', { method: 'HEAD' }, 200],
      ['bad parameter', '/v1/trips?type=boat', {}, 400],
      ['unknown trip', '/v1/trips/no-such-trip', {}, 404],
      ['unknown endpoint', '/v1/nothing-here', {}, 404],
      [
        'write method',
        '/v1/trips',
        { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } },
        405,
      ],
      ['HTML only', '/v1/trips', { headers: { Accept: 'text/html' } }, 406],
      ['not modified', '/v1/trips', { headers: { 'If-None-Match': etag } }, 304],
      [
        'preflight',
        '/v1/trips',
        { method: 'OPTIONS', headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET' } },
        204,
      ],
    ];
    let expected = remaining(first);
    expect(expected).toBe(119);
    for (const [label, path, init, status] of cases) {
      const res = await client(`${server.url}${path}`, init);
      expect(res.status, label).toBe(status);
      expectLimitHeaders(res, label);
      expected -= 1;
      expect(remaining(res), label).toBe(expected);
      expect(res.headers.get('retry-after'), label).toBeNull();
      await res.arrayBuffer();
    }
  });

  it('refuses a whole concurrent burst once the quota is spent', async () => {
    const client = clientAt();
    await exhaust(client);
    const burst = await Promise.all(Array.from({ length: 40 }, () => client(`${server.url}/v1/peaks`)));
    expect(burst.map((r) => r.status)).toEqual(Array(40).fill(429));
    for (const res of burst) await expectRateLimited(res);
  });

  it('lets exactly 120 of 150 concurrent requests through at the edge of the quota', async () => {
    const client = clientAt();
    const responses = await Promise.all(
      Array.from({ length: 150 }, (_, i) => client(`${server.url}${i % 2 ? '/v1/trips' : '/v1/'}`)),
    );
    const ok = responses.filter((r) => r.status === 200);
    expect(ok).toHaveLength(120);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(30);
    // Each admitted request saw its own count: the remaining values are 119 down to 0, once each.
    expect(ok.map(remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 120 }, (_, i) => i));
    await Promise.all(responses.map((r) => r.arrayBuffer()));
  });

  it('gives no fresh quota for a forged X-Forwarded-For, X-Real-IP or Vercel header', async () => {
    const client = clientAt();
    for (let i = 1; i <= 120; i += 1) {
      const forged = `198.51.100.${i}`;
      const res = await client(`${server.url}/v1/`, {
        headers: {
          'X-Forwarded-For': forged,
          'X-Real-IP': forged,
          'X-Vercel-Forwarded-For': forged,
          Forwarded: `for=${forged}`,
        },
      });
      expect(res.status).toBe(200);
      expect(remaining(res)).toBe(120 - i);
      await res.arrayBuffer();
    }
    await expectRateLimited(
      await client(`${server.url}/v1/`, { headers: { 'X-Forwarded-For': '192.0.2.200', 'X-Real-IP': '192.0.2.200' } }),
    );
  });

  it("with TRUST_PROXY=vercel counts Vercel's client-IP header instead of the socket", async () => {
    const client = clientAt();
    const as = (ip: string) => client(`${behindVercel.url}/v1/`, { headers: { 'X-Real-IP': ip } });
    for (let i = 0; i < 3; i += 1) await (await as('203.0.113.1')).arrayBuffer();
    expect(remaining(await as('203.0.113.1'))).toBe(116);
    expect(remaining(await as('203.0.113.2'))).toBe(119);
  });

  it('does not count or label requests outside /v1', async () => {
    const client = clientAt();
    const paths = ['/robots.txt', '/index.md', '/', '/no-such-page', '/openapi.json'];
    for (let i = 0; i < 130; i += 1) {
      const path = paths[i % paths.length]!;
      const res = await client(`${server.url}${path}`);
      expect(res.status, path).not.toBe(429);
      expect(res.headers.get('ratelimit-remaining'), path).toBeNull();
      expect(res.headers.get('ratelimit-policy'), path).toBeNull();
      await res.arrayBuffer();
    }
    expect(remaining(await client(`${server.url}/v1/`))).toBe(119);
  });
});
