import { describe, expect, it } from 'vitest';
import type { StoredDeparture } from '../../service/departures/source.ts';
import { acceptsJson, handleV1 } from '../../service/v1/index.ts';
import type { V1Deps } from '../../service/v1/operations.ts';
import { loadCatalogue } from '../helpers/content.ts';

const catalogue = loadCatalogue();
const deps: V1Deps = { catalogue, departures: null };
const get = (path: string, init: RequestInit = {}, d: V1Deps = deps) =>
  handleV1(new Request(`https://example.test${path}`, init), d);

describe('/v1 handler', () => {
  it('lists trips with AND-combined filters and 200 for an empty result', async () => {
    const all = await (await get('/v1/trips')).json();
    expect(all.count).toBe(2);
    const treks = await (await get('/v1/trips?type=trek&region=LADAKH&difficulty=moderate')).json();
    expect(treks.data.map((t: { slug: string }) => t.slug)).toEqual(['sample-trek']);
    const none = await get('/v1/trips?type=expedition&maxPriceInr=100000');
    expect(none.status).toBe(200);
    expect(await none.json()).toEqual({ object: 'list', count: 0, data: [] });
  });

  it('answers invalid parameters with 400 and a hint naming the accepted form', async () => {
    for (const query of [
      'type=walk',
      'region=a',
      `region=${'x'.repeat(61)}`,
      'maxPriceInr=0',
      'maxPriceInr=1.5',
      'difficulty=hard',
      'colour=red',
      'type=trek&type=trek',
    ]) {
      const res = await get(`/v1/trips?${query}`);
      expect(res.status, query).toBe(400);
      const body = await res.json();
      expect(Object.keys(body.error).sort()).toEqual(['code', 'documentationUrl', 'hint', 'message', 'status']);
      expect(body.error).toMatchObject({ code: 'invalid_parameter', status: 400 });
    }
    const body = await (await get('/v1/trips?type=walk')).json();
    expect(body.error.hint).toContain('omit the parameter to list both');
  });

  it('finds trips and peaks by id, and 404s unknown or malformed ones', async () => {
    expect((await (await get('/v1/trips/sample-trek')).json()).object).toBe('trip');
    for (const slug of ['nope', 'BAD_SLUG', '%E0%A4%A']) {
      const res = await get(`/v1/trips/${slug}`);
      expect(res.status, slug).toBe(404);
      expect((await res.json()).error.code).toBe('trip_not_found');
    }
    // An escaped slash or a dot segment would name another path to a router: no endpoint at all.
    for (const slug of ['..%2F..', 'a%2Fb', '%2e%2e%2fpeaks']) {
      const res = await get(`/v1/trips/${slug}`);
      expect(res.status, slug).toBe(404);
      expect((await res.json()).error.code, slug).toBe('endpoint_not_found');
    }
    const peak = await (await get('/v1/peaks/sample-peak')).json();
    expect(peak).toMatchObject({ object: 'peak', license: 'CC-BY-4.0', data: { id: 'sample-peak' } });
    expect(peak.data.coordinates).toBeUndefined();
    expect((await (await get('/v1/peaks/nope')).json()).error.code).toBe('peak_not_found');
  });

  it('answers an id an earlier release had with where the peak went: 410 peak_removed, or 301 peak_moved to its id now', async () => {
    const gone = await get('/v1/peaks/retired-peak');
    expect(gone.status).toBe(410);
    const body = await gone.json();
    expect(Object.keys(body.error).sort()).toEqual(['code', 'documentationUrl', 'hint', 'message', 'status']);
    expect(body.error).toMatchObject({
      code: 'peak_removed',
      status: 410,
      message:
        'Retired Peak (id "retired-peak") was removed from the dataset in version 2.1.0. A fixture record removed because no source gave its summit. Its last record is in version 2.0.0: https://example.test/peak-data/2.0.0/peaks.json.',
      hint: 'Other Peak (id "other-peak") was added in its place: https://example.test/v1/peaks/other-peak. Every current id: https://example.test/v1/peaks.',
    });
    expect(gone.headers.get('Content-Type')).toBe('application/json; charset=utf-8');

    const moved = await get('/v1/peaks/renamed-peak');
    expect(moved.status).toBe(301);
    expect(moved.headers.get('Location')).toBe('https://example.test/v1/peaks/sample-peak');
    expect((await moved.json()).error).toMatchObject({
      code: 'peak_moved',
      status: 301,
      message:
        'Sample Peak has the id "sample-peak" since version 2.1.0 of the dataset; "renamed-peak" was its id up to version 2.0.0.',
    });
    // An id no release had is still not found.
    expect((await get('/v1/peaks/never-a-peak')).status).toBe(404);
  });

  it('filters peaks and carries licence and attribution', async () => {
    const body = await (await get('/v1/peaks?openPeak=true&maxAltitudeM=6500')).json();
    expect(body).toMatchObject({ object: 'list', count: 1, license: 'CC-BY-4.0' });
    expect(body.attribution).toContain('CC-BY-4.0');
    expect((await get('/v1/peaks?openPeak=yes')).status).toBe(400);
  });

  it('gives 404 endpoint_not_found, 405 with Allow, and 406 for non-JSON Accept', async () => {
    expect((await (await get('/v1/nothing/here')).json()).error.code).toBe('endpoint_not_found');
    const post = await get('/v1/trips', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('Allow')).toBe('GET, HEAD, OPTIONS');
    const xml = await get('/v1/trips', { headers: { Accept: 'application/xml' } });
    expect(xml.status).toBe(406);
    expect((await xml.json()).error.code).toBe('not_acceptable');
    expect(acceptsJson('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBe(true);
    expect(acceptsJson('application/json;q=0')).toBe(false);
  });

  it('sends cache headers, a strong ETag, 304 on If-None-Match, and HEAD without a body', async () => {
    const res = await get('/v1/peaks');
    expect(res.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=300, s-maxage=3600');
    const etag = res.headers.get('ETag')!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const notModified = await get('/v1/peaks', { headers: { 'If-None-Match': etag } });
    expect(notModified.status).toBe(304);
    // RFC 9110 §15.4.5: the validators and cache fields, no representation metadata.
    expect(notModified.headers.get('ETag')).toBe(etag);
    expect(notModified.headers.get('Cache-Control')).toBe('public, max-age=300, s-maxage=3600');
    expect(notModified.headers.get('Content-Type')).toBeNull();
    const head = await get('/v1/peaks', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('answers departures with 503 when storage is off and 502 when it fails, and falls back to the trip price', async () => {
    const off = await get('/v1/departures');
    expect(off.status).toBe(503);
    expect((await off.json()).error.code).toBe('departures_unavailable');
    const failing = await get(
      '/v1/departures',
      {},
      { catalogue, departures: { listPublished: async () => Promise.reject(new Error('down')) } },
    );
    expect(failing.status).toBe(502);
    const rows: StoredDeparture[] = [
      {
        id: 'd1',
        tripSlug: 'sample-trek',
        startDate: '2027-06-01',
        endDate: '2027-06-02',
        status: 'open',
        priceInr: null,
        seatsTotal: 12,
        seatsLeft: 5,
        note: null,
      },
    ];
    const ok = await (
      await get('/v1/departures', {}, { catalogue, departures: { listPublished: async () => rows } })
    ).json();
    expect(ok.data[0]).toMatchObject({
      id: 'd1',
      tripName: 'Fixture Trek',
      priceInr: 15000,
      tripUrl: 'https://example.test/treks/sample-trek',
    });
    expect(ok.data[0].note).toBeUndefined();
  });

  it('lists every operation in the service index', async () => {
    const index = await (await get('/v1/')).json();
    expect(index.endpoints.map((e: { operationId: string }) => e.operationId)).toEqual([
      'getServiceIndex',
      'listTrips',
      'getTrip',
      'listDepartures',
      'listPeaks',
      'getPeak',
    ]);
    expect(index.rateLimit).toMatchObject({ requests: 120, windowSeconds: 60 });
    expect(index.authentication).toBe('none');
  });

  it('ignores an Authorization header', async () => {
    const a = await (await get('/v1/trips')).text();
    const b = await (await get('/v1/trips', { headers: { Authorization: 'Bearer anything' } })).text();
    expect(b).toBe(a);
  });
});
