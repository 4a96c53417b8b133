/**
 * /v1 answers every query name in its contract: a name that happens to be a property of
 * Object.prototype (`constructor`, `__proto__`, `toString`, …) is an unknown parameter like any
 * other, and an unexpected failure inside the handler is still the one JSON error shape.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { errorBody } from '../../service/http/error-body.ts';
import { handleV1 } from '../../service/v1/index.ts';
import type { V1Deps } from '../../service/v1/operations.ts';
import { loadCatalogue } from '../helpers/content.ts';

const catalogue = loadCatalogue();
const deps: V1Deps = { catalogue, departures: { listPublished: async () => [] }, log: () => {} };
const paths = ['/v1/', '/v1/trips', '/v1/trips/sample-trek', '/v1/departures', '/v1/peaks', '/v1/peaks/sample-peak'];
/** Paths whose operation declares query parameters, so an unknown name is refused there. */
const filtered = ['/v1/trips', '/v1/departures', '/v1/peaks'];
const prototypeNames = Object.getOwnPropertyNames(Object.prototype);

async function answer(path: string, query: string): Promise<{ status: number; body: unknown }> {
  const response = await handleV1(new Request(`https://example.test${path}?${query}`), deps);
  expect(response.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
  return { status: response.status, body: await response.json() };
}

describe('/v1 query names', () => {
  it('refuses every Object.prototype name as an unknown parameter, on every operation that takes filters', async () => {
    expect(prototypeNames).toEqual(
      expect.arrayContaining(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']),
    );
    for (const path of filtered) {
      for (const name of prototypeNames) {
        const { status, body } = await answer(path, `${encodeURIComponent(name)}=1`);
        expect(status, `${path}?${name}`).toBe(400);
        expect(errorBody.parse(body).error, `${path}?${name}`).toMatchObject({
          code: 'invalid_parameter',
          message: `Unknown query parameter "${name}".`,
        });
      }
    }
  });

  it('answers any query, with any names and values, with 200 or the contract error shape', async () => {
    const name = fc.oneof(
      fc.constantFrom(...prototypeNames, 'type', 'region', 'trip', 'openPeak', 'maxPriceInr'),
      fc.string({ maxLength: 12 }),
      fc.string({ unit: 'binary', maxLength: 6 }),
    );
    const pair = fc.tuple(name, fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('trek', 'true', '1', '')));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fc.array(pair, { maxLength: 4 }), async (path, pairs) => {
        const query = new URLSearchParams(pairs).toString();
        const { status, body } = await answer(path, query);
        if (status === 200) return;
        const parsed = errorBody.parse(body);
        expect(parsed.error.status).toBe(status);
        expect(parsed.error.code).toBe('invalid_parameter');
      }),
      { numRuns: 400 },
    );
  });
});

describe('/v1 when something unexpected fails', () => {
  it('answers 500 internal_error in the error shape, and logs the cause with the request', async () => {
    const lines: string[] = [];
    const broken = Object.create(catalogue, {
      trips: {
        get: () => {
          throw new TypeError('catalogue unreadable');
        },
      },
    });
    const response = await handleV1(new Request('https://example.test/v1/trips?type=trek'), {
      catalogue: broken,
      departures: null,
      log: (line) => lines.push(line),
    });
    expect(response.status).toBe(500);
    expect(response.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    const body = errorBody.parse(await response.json());
    expect(body.error).toMatchObject({ code: 'internal_error', status: 500 });
    expect(body.error.message).not.toContain('catalogue unreadable');
    expect(lines.join('\n')).toContain('GET /v1/trips?type=trek');
    expect(lines.join('\n')).toContain('catalogue unreadable');

    const head = await handleV1(new Request('https://example.test/v1/trips', { method: 'HEAD' }), {
      catalogue: broken,
      departures: null,
      log: () => {},
    });
    expect(head.status).toBe(500);
    expect(await head.text()).toBe('');
  });
});
