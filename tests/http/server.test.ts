import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';

let server: InProcessServer;
beforeAll(async () => {
  server = await startInProcess(inject('fixtureSite'));
});
afterAll(() => server?.stop());

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
