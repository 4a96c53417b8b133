/**
 * One decoding of the path for the rules, the router and the API: every path the API owns
 * (the request target read as a URL, then service/http/api-path.ts: decoded once, `/v1` first) is
 * answered with the contract's JSON and
 * counted against the quota exactly once, however it is spelled (escapes, double escapes, dot
 * segments, escaped slashes, repeated slashes); every other path is never answered by the API.
 * Sent as raw bytes, so no client tidies the path first.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiPath } from '../../service/http/api-path.ts';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { rawExchange, serialize } from './raw-http.ts';

let server: InProcessServer;
beforeAll(async () => {
  // Behind Vercel's client-IP header: each request below is a client of its own.
  server = await startInProcess(inject('fixtureSite'), { TRUST_PROXY: 'vercel', OPERATIONAL_STORAGE: 'off' });
});
afterAll(() => server?.stop());

const pieces = [
  'v1',
  'V1',
  '%76%31',
  '%2576%2531',
  'v%31',
  'trips',
  'peaks',
  'departures',
  'sample-trek',
  'sample-peak',
  'nope',
  '.',
  '..',
  '%2e',
  '%2E%2E',
  '%2e%2e%2f',
  '%2f',
  '%2F',
  '%5c',
  '%5C',
  '%00',
  '%25',
  '%zz',
  '',
  'x%20y',
  'trips.json',
  'index.json',
  '~unroutable',
  '%E0%A4%A',
];
const paths = fc
  .array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 4 })
  .chain((segments) =>
    fc.constantFrom(
      `/${segments.join('/')}`,
      `/${segments.join('/')}/`,
      `//${segments.join('/')}`,
      `/v1/${segments.join('/')}`,
    ),
  );

let client = 0;

async function get(path: string) {
  client += 1;
  const ip = `198.18.${Math.floor(client / 250)}.${(client % 250) + 1}`;
  const exchange = await rawExchange(
    serialize('GET', path, [
      ['Host', `127.0.0.1:${server.port}`],
      ['X-Real-IP', ip],
      ['Connection', 'close'],
    ]),
    { port: server.port, timeoutMs: 5000 },
  );
  const response = exchange.responses[0];
  if (!response) throw new Error(`${path}: no response`);
  return response;
}

describe('paths under /v1, however spelled', () => {
  it('are answered by the API in its JSON shape and counted once; other paths never are', async () => {
    await fc.assert(
      fc.asyncProperty(paths, async (path) => {
        const response = await get(path);
        // A request target is read as a URL first (dot segments resolved, as every host does), then decoded once.
        const ownsIt = apiPath(new URL(`http://host${path}`).pathname).kind !== 'not-api';
        const label = `${path} → ${response.status} ${response.headers.get('content-type')}`;
        if (ownsIt) {
          expect(response.headers.get('content-type'), label).toBe('application/json; charset=utf-8');
          const body = JSON.parse(response.body.toString('utf8')) as Record<string, unknown>;
          if (response.status >= 400) expect(Object.keys(body), label).toEqual(['error']);
          // A fresh client: counted exactly once for this request.
          expect(response.headers.get('ratelimit-remaining'), label).toBe('119');
        } else {
          expect(response.headers.get('ratelimit-remaining'), label).toBeUndefined();
          expect(response.status, label).toBeLessThan(500);
          if (response.headers.get('content-type')?.startsWith('application/json')) {
            expect(response.body.toString('utf8'), label).not.toContain('"documentationUrl"');
          }
        }
      }),
      { numRuns: 300, seed: 20261123 },
    );
  }, 120_000);

  it('answers the spellings the audit found', async () => {
    for (const path of ['/v1/..%2f', '/v1/..%2f..%2f', '/%76%31/trips', '/v1%2Ftrips', '//v1/trips', '/../v1/trips']) {
      const response = await get(path);
      expect(response.headers.get('content-type'), path).toBe('application/json; charset=utf-8');
      expect(response.headers.get('ratelimit-remaining'), path).toBe('119');
    }
    // Neither the API's nor counted: a double escape decodes once to /%76%31/, and /v1/%2e%2e/ is / itself.
    const double = await get('/%2576%2531/trips');
    expect(double.status).toBe(404);
    expect(double.headers.get('ratelimit-remaining')).toBeUndefined();
    const home = await get('/v1/%2e%2e/');
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(home.headers.get('ratelimit-remaining')).toBeUndefined();
  });
});
