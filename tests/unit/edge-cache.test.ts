import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { EdgeCache } from '../../service/host/edge-cache.ts';

const page = (n: number) =>
  Buffer.from(`<!doctype html><title>${n}</title>${'<p>departure row, seats left</p>'.repeat(2000)}`);
const headers = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, s-maxage=60' };
const noHeader = { get: () => null };

describe('EdgeCache', () => {
  it('counts the compressed forms it makes against its budget, once each', async () => {
    const cache = new EdgeCache({ maxBytes: 10 * 2 ** 20 });
    const body = page(1);
    const kept = cache.put('/departures', noHeader, 200, headers, body);
    expect(cache.bytes).toBe(body.length);
    const [first, again] = await Promise.all([cache.encodedBody(kept, 'gzip, br'), cache.encodedBody(kept, 'br')]);
    expect(first.encoding).toBe('br');
    expect(again.body).toBe(first.body);
    expect(brotliDecompressSync(first.body).equals(body)).toBe(true);
    const gzip = await cache.encodedBody(kept, 'gzip');
    expect(gunzipSync(gzip.body).equals(body)).toBe(true);
    expect(cache.bytes).toBe(body.length + first.body.length + gzip.body.length);
    // Made once: the next request gets the same bytes without waiting.
    expect(cache.encodedBody(kept, 'br')).toEqual({ body: first.body, encoding: 'br' });
    expect(cache.encodedBody(kept, 'identity')).toEqual({ body });
  });

  it('drops the oldest answers when compressed forms take it over budget', async () => {
    const size = page(0).length;
    const cache = new EdgeCache({ maxBytes: Math.floor(size * 2.5) });
    const a = cache.put('/a', noHeader, 200, headers, page(1));
    cache.put('/b', noHeader, 200, headers, page(2));
    expect(cache.get('/a', noHeader)).toBe(a);
    // /a was used last, so /b is the oldest when a compressed form of /a needs room.
    const c = cache.put('/c', noHeader, 200, headers, page(3));
    expect(cache.get('/b', noHeader)).toBeNull();
    await cache.encodedBody(c, 'br');
    expect(cache.bytes).toBeLessThanOrEqual(Math.floor(size * 2.5));
    expect(cache.get('/c', noHeader)).toBe(c);
  });

  it('compresses an answer it may not keep without counting it', async () => {
    const cache = new EdgeCache();
    const answer = cache.put('/enquiry-sent', noHeader, 200, { ...headers, 'cache-control': 'no-store' }, page(4));
    const encoded = await cache.encodedBody(answer, 'br');
    expect(encoded.encoding).toBe('br');
    expect(cache.bytes).toBe(0);
    expect(cache.get('/enquiry-sent', noHeader)).toBeNull();
  });

  it('lets go of expired answers within a second, not only when pushed out', () => {
    let now = 0;
    const cache = new EdgeCache({ clock: () => now });
    const live = { ...headers, 'cache-control': 'public, s-maxage=1' };
    for (let i = 0; i < 20; i += 1) cache.put(`/departures?trip=unknown-${i}`, noHeader, 200, live, page(i));
    const catalogue = cache.put(
      '/v1/trips?type=trek',
      noHeader,
      200,
      { ...headers, 'cache-control': 'public, s-maxage=3600' },
      page(99),
    );
    now = 2500;
    const fresh = cache.put('/departures', noHeader, 200, live, page(100));
    expect(cache.bytes).toBe(catalogue.body.length + fresh.body.length);
    expect(cache.get('/v1/trips?type=trek', noHeader)).toBe(catalogue);
  });

  it('says how long an answer was kept (Age, whole seconds rounded up), so a browser counts it against the lifetime', () => {
    let now = 1_000_000;
    const cache = new EdgeCache({ clock: () => now });
    const kept = cache.put('/departures', noHeader, 200, headers, page(1));
    expect(cache.ageOf(kept)).toBe(0);
    now += 1;
    expect(cache.ageOf(cache.get('/departures', noHeader)!)).toBe(1);
    now += 1500;
    expect(cache.ageOf(kept)).toBe(2);
  });

  it("names the call making a URL's answer until it settles, so misses of that URL wait for it instead of calling again", async () => {
    const cache = new EdgeCache();
    let finish!: () => void;
    const call = cache.fill('/departures', new Promise<void>((done) => (finish = done)));
    expect(cache.filling('/departures')).toBe(call);
    expect(cache.filling('/departures?z=1')).toBeUndefined();
    finish();
    await call;
    expect(cache.filling('/departures')).toBeUndefined();
    const failed = cache.fill('/departures', Promise.reject(new Error('storage away')));
    await expect(failed).rejects.toThrow('storage away');
    expect(cache.filling('/departures')).toBeUndefined();
  });
});
