import { readdirSync, readFileSync } from 'node:fs';
import { get } from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isCompressible } from '../../service/host/static-files.ts';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';

let server: InProcessServer;
beforeAll(async () => {
  server = await startInProcess(inject('fixtureSite'));
});
afterAll(() => server?.stop());

/** The body's bytes as sent, in the encoding the server chose for `encoding`. */
function rawGet(
  url: string,
  encoding: string,
): Promise<{ encoding: string | undefined; body: Buffer; headers: Record<string, string>; names: string[] }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'Accept-Encoding': encoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          encoding: res.headers['content-encoding'],
          body: Buffer.concat(chunks),
          headers: res.headers as Record<string, string>,
          names: res.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase()),
        }),
      );
      res.on('error', reject);
    }).on('error', reject);
  });
}

describe('built files compressed at build', () => {
  const build = path.join(inject('fixtureSite'), 'dist', 'current');
  const site = path.join(build, 'site');

  it('has each file the host sends compressed in Brotli and gzip beside the site, decompressing to it', () => {
    const files = readdirSync(site, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(site, path.join(entry.parentPath, entry.name)));
    const compressible = files.filter((file) => isCompressible(file, readFileSync(path.join(site, file)).length));
    expect(compressible).toContain('llms-full.txt');
    for (const file of compressible) {
      const body = readFileSync(path.join(site, file));
      const compressed = path.join(build, 'compressed', file);
      expect(brotliDecompressSync(readFileSync(`${compressed}.br`)).equals(body), `${file}.br`).toBe(true);
      expect(gunzipSync(readFileSync(`${compressed}.gz`)).equals(body), `${file}.gz`).toBe(true);
    }
    // Nothing was added to the published site itself.
    expect(files.filter((file) => /\.(br|gz)$/.test(file))).toEqual([]);
  });

  it("sends the build's compressed bytes as they are", async () => {
    for (const [encoding, name] of [
      ['br', '.br'],
      ['gzip', '.gz'],
    ] as const) {
      const sent = await rawGet(`${server.url}/llms-full.txt`, encoding);
      expect(sent.encoding).toBe(encoding);
      expect(sent.body.equals(readFileSync(path.join(build, 'compressed', `llms-full.txt${name}`))), encoding).toBe(
        true,
      );
    }
  });
});

describe('local server', () => {
  it('serves the home page as HTML with security headers and a Markdown alternate', async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('vary')).toContain('Accept');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await res.text()).toContain('<link rel="alternate" type="text/markdown" href="/index.md"');
  });

  it('answers Accept: text/markdown on a page with its Markdown twin', async () => {
    const res = await fetch(`${server.url}/`, { headers: { Accept: 'text/markdown' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(res.headers.get('vary')).toContain('Accept');
    expect(await res.text()).toMatch(/^# /);
  });

  it('serves the API with rate-limit headers on success and failure', async () => {
    for (const path of ['/v1/', '/v1/trips', '/v1/nope']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.headers.get('content-type'), path).toBe('application/json; charset=utf-8');
      expect(res.headers.get('ratelimit-policy'), path).toBe('120;w=60');
      expect(res.headers.get('x-ratelimit-remaining'), path).toMatch(/^\d+$/);
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
    }
  });

  it("sends a kept live answer with each request's own rate-limit headers and Age, in each encoding", async () => {
    const sent: { headers: Record<string, string>; names: string[]; body: Buffer }[] = [];
    for (let i = 0; i < 9; i += 1) {
      const res = await rawGet(`${server.url}/v1/departures`, ['identity', 'br', 'gzip'][i % 3]!);
      sent.push({ headers: res.headers, names: res.names, body: res.body });
    }
    const remaining = sent.map((s) => Number(s.headers['ratelimit-remaining']));
    expect(remaining).toEqual(remaining.map((_, i) => remaining[0]! - i));
    for (const [i, { headers, names, body }] of sent.entries()) {
      const label = `request ${i + 1}`;
      expect(headers['x-ratelimit-remaining'], label).toBe(String(remaining[i]));
      expect(headers.ratelimit, label).toMatch(new RegExp(`^"default";r=${remaining[i]};t=\\d+$`));
      expect(headers['content-encoding'], label).toBe([undefined, 'br', 'gzip'][i % 3]);
      expect(Number(headers['content-length']), label).toBe(body.length);
      // Each header once: no list carries another request's headers.
      expect(new Set(names).size, label).toBe(names.length);
    }
    // Kept after the first: the others come from the edge cache and say how old they are.
    expect(sent.slice(1).every((s) => Number(s.headers.age) >= 1)).toBe(true);
    const plain = JSON.parse(sent[0]!.body.toString('utf8')) as { count: number };
    expect(plain.count).toBeGreaterThan(0);
    expect(brotliDecompressSync(sent[1]!.body).equals(sent[0]!.body)).toBe(true);
    expect(gunzipSync(sent[2]!.body).equals(sent[0]!.body)).toBe(true);
  });

  it('reads departures from the embedded store', async () => {
    const res = await fetch(`${server.url}/v1/departures?trip=sample-trek`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.count).toBeGreaterThan(0);
    expect(body.data.every((d: { tripSlug: string }) => d.tripSlug === 'sample-trek')).toBe(true);
    const dates = body.data.map((d: { startDate: string }) => d.startDate);
    expect(dates).toEqual([...dates].sort());
  });

  it('answers unknown paths with a 404 recovery note, Markdown or HTML', async () => {
    const md = await fetch(`${server.url}/no-such-page`, { headers: { Accept: 'text/markdown' } });
    expect(md.status).toBe(404);
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const text = await md.text();
    for (const link of ['sitemap-index.xml', '/developers', 'llms.txt']) expect(text).toContain(link);
    const html = await fetch(`${server.url}/no-such-page`);
    expect(html.status).toBe(404);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });
});
