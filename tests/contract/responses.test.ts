/**
 * Every /v1 response these tests receive from a real server is checked against the served
 * openapi.json: status declared for the operation, body valid against its schema, content type,
 * caching and rate-limit headers. One test per operation and per error code of the contract.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { operations } from '../../service/v1/operations.ts';
import { observe, OpenApiContract, type CheckOptions, type ObservedResponse } from '../helpers/openapi.ts';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { freePort } from '../helpers/project.ts';

let server: InProcessServer;
let contract: OpenApiContract;

beforeAll(async () => {
  server = await startInProcess(inject('fixtureSite'));
  const served = await fetch(`${server.url}/openapi.json`);
  expect(served.headers.get('content-type')).toBe('application/json; charset=utf-8');
  contract = new OpenApiContract(await served.json());
  // The first /v1 request opens the embedded store; pay that here, not inside a test's time limit.
  await fetch(`${server.url}/v1/departures`);
});
afterAll(() => server?.stop());

async function call(target: InProcessServer, path: string, init: RequestInit = {}): Promise<ObservedResponse> {
  return observe(await fetch(`${target.url}${path}`, init));
}

/** Calls the server and holds the answer to the document; returns it for further checks. */
async function conforming(
  operationId: string,
  path: string,
  init: RequestInit = {},
  status?: number,
  target = server,
): Promise<ObservedResponse> {
  const observed = await call(target, path, init);
  const options: CheckOptions = { head: init.method === 'HEAD' };
  expect(
    contract.check(operationId, observed, options),
    `${init.method ?? 'GET'} ${path} → ${observed.status}`,
  ).toEqual([]);
  if (status !== undefined) expect(observed.status, `${path}: ${observed.text.slice(0, 200)}`).toBe(status);
  return observed;
}

const json = (observed: ObservedResponse) => JSON.parse(observed.text);
const errorCode = (observed: ObservedResponse) => json(observed).error.code as string;
const pathOf = (operationId: string, value = '') => {
  const op = operations.find((o) => o.operationId === operationId)!;
  return `/v1${op.pathParam ? op.path.replace(`{${op.pathParam.name}}`, value) : op.path}`;
};

describe('responses conform to openapi.json', () => {
  it('getServiceIndex: 200 at /v1 and /v1/, a query string ignored, HEAD and 304', async () => {
    const index = json(await conforming('getServiceIndex', '/v1/', {}, 200));
    expect(index.endpoints.map((e: { operationId: string }) => e.operationId)).toEqual(contract.operationIds());
    expect(index.openapiUrl).toMatch(/^http:\/\/[^/]+\/openapi\.json$/);
    await conforming('getServiceIndex', '/v1', {}, 200);
    await conforming('getServiceIndex', '/v1/?utm_source=feed', {}, 200);
  });

  it('listTrips: every filter, combined, and an empty list', async () => {
    const all = json(await conforming('listTrips', '/v1/trips', {}, 200));
    expect(all.count).toBe(all.data.length);
    for (const query of [
      'type=trek',
      'type=expedition',
      'region=ladakh',
      'difficulty=moderate',
      'maxPriceInr=20000',
      'type=trek&region=LADAKH&difficulty=Moderate&maxPriceInr=15000',
    ]) {
      const body = json(await conforming('listTrips', `/v1/trips?${query}`, {}, 200));
      expect(body.count, query).toBeGreaterThan(0);
    }
    expect(json(await conforming('listTrips', '/v1/trips?type=expedition&maxPriceInr=1', {}, 200))).toEqual({
      object: 'list',
      count: 0,
      data: [],
    });
  });

  it('getTrip and getPeak: every published id, and 404 for unknown or malformed ones', async () => {
    const trips = json(await call(server, '/v1/trips')).data as { slug: string }[];
    for (const { slug } of trips)
      expect(json(await conforming('getTrip', pathOf('getTrip', slug), {}, 200)).data.slug).toBe(slug);
    for (const slug of ['no-such-trip', 'Bad_Slug', '%E0%A4%A'])
      expect(errorCode(await conforming('getTrip', pathOf('getTrip', slug), {}, 404))).toBe('trip_not_found');
    await conforming('getTrip', `${pathOf('getTrip', trips[0]!.slug)}?ignored=1`, {}, 200);
    const peaks = json(await call(server, '/v1/peaks')).data as { id: string }[];
    for (const { id } of peaks)
      expect(json(await conforming('getPeak', pathOf('getPeak', id), {}, 200)).data.id).toBe(id);
    expect(errorCode(await conforming('getPeak', pathOf('getPeak', 'no-such-peak'), {}, 404))).toBe('peak_not_found');
  });

  it('listDepartures: all, and one trip, with the short cache', async () => {
    const all = await conforming('listDepartures', '/v1/departures', {}, 200);
    expect(all.headers.get('cache-control')).toBe('public, max-age=30, s-maxage=1, stale-while-revalidate=28');
    const one = json(await conforming('listDepartures', '/v1/departures?trip=sample-trek', {}, 200));
    expect(one.count).toBeGreaterThan(0);
    expect(json(await conforming('listDepartures', '/v1/departures?trip=no-such-trip', {}, 200)).count).toBe(0);
  });

  it('listPeaks: every filter, with licence and attribution', async () => {
    for (const query of [
      '',
      '?openPeak=true',
      '?openPeak=false',
      '?firstSixThousanderCandidate=true',
      '?operatorOperated=true',
      '?maxAltitudeM=6500',
      '?openPeak=true&maxAltitudeM=8000',
    ]) {
      const body = json(await conforming('listPeaks', `/v1/peaks${query}`, {}, 200));
      expect(body).toMatchObject({ object: 'list', license: 'CC-BY-4.0' });
    }
  });

  it('invalid_parameter: bad values, unknown, repeated and huge parameters on every list operation', async () => {
    const lists = operations.filter((op) => op.errors.includes('invalid_parameter'));
    expect(lists.map((op) => op.operationId)).toEqual(['listTrips', 'listDepartures', 'listPeaks']);
    const bad: Record<string, string> = {
      type: 'walk',
      region: 'a',
      difficulty: 'hard',
      maxPriceInr: '0',
      trip: 'Not_A_Slug',
      openPeak: 'yes',
      firstSixThousanderCandidate: '1',
      operatorOperated: 'TRUE',
      maxAltitudeM: '1.5',
    };
    const good: Record<string, string> = { type: 'trek', trip: 'sample-trek', openPeak: 'true' };
    for (const op of lists) {
      const first = Object.keys(op.query)[0]!;
      const queries = [
        ...Object.keys(op.query).map((name) => `${name}=${encodeURIComponent(bad[name]!)}`),
        'colour=red',
        `${first}=${good[first]}&${first}=${good[first]}`,
        `${first}=${'x'.repeat(3000)}`,
      ];
      for (const query of queries) {
        const observed = await conforming(op.operationId, `/v1${op.path}?${query}`, {}, 400);
        expect(errorCode(observed), query).toBe('invalid_parameter');
        expect(json(observed).error.hint, query).toBeTruthy();
      }
    }
    expect(json(await call(server, '/v1/trips?type=walk')).error.hint).toContain('omit the parameter to list both');
  });

  it('304 on a matching If-None-Match, and HEAD with the GET headers and no body, on every operation', async () => {
    const samples: Record<string, string> = {
      getTrip: pathOf('getTrip', 'sample-trek'),
      getPeak: pathOf('getPeak', 'sample-peak'),
    };
    for (const op of operations) {
      const path = samples[op.operationId] ?? pathOf(op.operationId);
      const first = await conforming(op.operationId, path, {}, 200);
      const etag = first.headers.get('etag')!;
      await conforming(op.operationId, path, { headers: { 'If-None-Match': etag } }, 304);
      const head = await conforming(op.operationId, path, { method: 'HEAD' }, 200);
      expect(head.headers.get('etag')).toBe(etag);
    }
  });

  it('405 with Allow, and 406 for an Accept without JSON, on every operation', async () => {
    const methods = ['POST', 'PUT', 'DELETE', 'PATCH', 'POST', 'PUT'];
    for (const [i, op] of operations.entries()) {
      const path = pathOf(op.operationId, 'sample-trek');
      const refused = await conforming(
        op.operationId,
        path,
        { method: methods[i]!, body: methods[i] === 'DELETE' ? null : '{}' },
        405,
      );
      expect(refused.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect(errorCode(refused)).toBe('method_not_allowed');
      const unacceptable = await conforming(
        op.operationId,
        path,
        { headers: { Accept: i % 2 ? 'text/html' : 'application/xml' } },
        406,
      );
      expect(errorCode(unacceptable)).toBe('not_acceptable');
    }
  });

  it('endpoint_not_found for any path under /v1 that is no operation', async () => {
    for (const path of ['/v1/nope', '/v1/trips/sample-trek/extra', '/v1//trips']) {
      const observed = await call(server, path);
      expect(observed.status, path).toBe(404);
      expect(contract.checkUnmatched(observed), path).toEqual([]);
      expect(errorCode(observed)).toBe('endpoint_not_found');
    }
  });

  it('ignores an Authorization header', async () => {
    const plain = await conforming('listPeaks', '/v1/peaks');
    const bearer = await conforming('listPeaks', '/v1/peaks', {
      headers: { Authorization: 'Bearer not-a-real-token' },
    });
    expect(bearer.status).toBe(200);
    expect(bearer.text).toBe(plain.text);
  });
});

describe('responses of differently configured servers conform to openapi.json', () => {
  const extra: InProcessServer[] = [];
  afterAll(() => Promise.all(extra.map((s) => s.stop())));
  const start = async (env: Record<string, string>) => {
    const started = await startInProcess(inject('fixtureSite'), env);
    extra.push(started);
    return started;
  };

  it(
    'departures_unavailable: 503 when no operational storage is configured; trips still answer',
    { timeout: 60_000 },
    async () => {
      const off = await start({ OPERATIONAL_STORAGE: 'off' });
      expect(errorCode(await conforming('listDepartures', '/v1/departures', {}, 503, off))).toBe(
        'departures_unavailable',
      );
      await conforming('listTrips', '/v1/trips', {}, 200, off);
    },
  );

  it(
    'departures_upstream_error: 502 when PostgreSQL does not answer; peaks still answer',
    { timeout: 60_000 },
    async () => {
      const closedPort = await freePort();
      const down = await start({
        OPERATIONAL_STORAGE: 'postgres',
        DATABASE_URL: `postgres://catalogue@127.0.0.1:${closedPort}/catalogue`,
      });
      expect(errorCode(await conforming('listDepartures', '/v1/departures', {}, 502, down))).toBe(
        'departures_upstream_error',
      );
      await conforming('listPeaks', '/v1/peaks', {}, 200, down);
    },
  );

  it('rate_limited: the 121st request in a window is 429 with Retry-After', { timeout: 90_000 }, async () => {
    // No storage: the quota is what is under test, and the server starts faster without it.
    const limited = await start({ OPERATIONAL_STORAGE: 'off' });
    const seen: ObservedResponse[] = [];
    for (let batch = 0; batch < 12; batch += 1) {
      seen.push(...(await Promise.all(Array.from({ length: 10 }, () => call(limited, '/v1/trips')))));
    }
    for (const observed of seen) expect(contract.check('listTrips', observed)).toEqual([]);
    expect(seen.map((o) => o.status)).toEqual(Array(120).fill(200));
    expect(seen.map((o) => Number(o.headers.get('ratelimit-remaining'))).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 120 }, (_, i) => i),
    );
    const over = await conforming('listTrips', '/v1/trips', {}, 429, limited);
    expect(errorCode(over)).toBe('rate_limited');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(over.headers.get('ratelimit-remaining')).toBe('0');
    const unmatched = await call(limited, '/v1/nope');
    expect(unmatched.status).toBe(429);
    expect(contract.checkRequest('GET', '/v1/nope', unmatched)).toEqual([]);
  });
});
