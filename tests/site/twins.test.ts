/**
 * Over HTTP against the local server: Markdown twins and `Accept: text/markdown` for every page,
 * the same content in both forms, trip page caching and structured data, and answers to bad URLs.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { errorCodes } from '../../service/http/errors.ts';
import { siteFiles } from '../../service/site-files.ts';
import { operations } from '../../service/v1/operations.ts';
import { loadCatalogue } from '../helpers/content.ts';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { isTripPath, sitemapPaths } from './site.ts';

let server: InProcessServer;
let paths: string[];
const catalogue = loadCatalogue();
const markdown = { Accept: 'text/markdown' };

beforeAll(async () => {
  server = await startInProcess(inject('fixtureSite'));
  paths = await sitemapPaths(server.url);
});
afterAll(() => server?.stop());

const get = (p: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${p}`, { headers, redirect: 'manual' });

describe('Markdown twins and negotiation', () => {
  it('every page answers Accept: text/markdown with its Markdown, Vary: Accept, and advertises the twin in Link', async () => {
    for (const p of paths) {
      const md = await get(p, markdown);
      expect(md.status, p).toBe(200);
      expect(md.headers.get('content-type'), p).toBe('text/markdown; charset=utf-8');
      expect(md.headers.get('vary'), p).toMatch(/Accept/);
      expect(await md.text(), p).toMatch(/^# \S/);
      const html = await get(p);
      expect(html.headers.get('content-type'), p).toMatch(/^text\/html/);
      expect(html.headers.get('vary'), p).toMatch(/Accept/);
      const twin = p === '/' ? '/index.md' : `${p}.md`;
      expect(html.headers.get('link'), p).toContain(`<${twin}>; rel="alternate"; type="text/markdown"`);
      const direct = await get(twin);
      expect(direct.status, twin).toBe(200);
      expect(direct.headers.get('content-type'), twin).toBe('text/markdown; charset=utf-8');
      expect(await direct.text(), twin).not.toMatch(/undefined|NaN|\[object Object\]/);
    }
  });

  it('a filtered index negotiates to the index twin', async () => {
    const res = await get('/treks?difficulty=Moderate', markdown);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await res.text()).toMatch(/^# Treks/);
  });

  it('the index twins list the same trips as the pages, linking each trip twin', async () => {
    for (const [p, type] of [
      ['/treks', 'trek'],
      ['/expeditions', 'expedition'],
    ] as const) {
      const [html, md] = await Promise.all([get(p).then((r) => r.text()), get(`${p}.md`).then((r) => r.text())]);
      for (const { trip, path } of catalogue.trips.filter((t) => t.trip.type === type)) {
        expect(html, `${p}: ${trip.name}`).toContain(`href="${path}"`);
        expect(md, `${p}.md: ${trip.name}`).toContain(`[${trip.name}](`);
        expect(md).toContain(`${path}.md)`);
      }
    }
  });

  it('the home twin has what the home page has: featured trips, the departure search, the departures link', async () => {
    const [html, md] = await Promise.all([get('/').then((r) => r.text()), get('/index.md').then((r) => r.text())]);
    for (const { trip } of catalogue.trips) {
      expect(html).toContain(trip.name);
      expect(md).toContain(trip.name);
    }
    expect(md).toContain('/departures.md');
    // The search: a form to the board on the page, the same question as an address in the twin.
    expect(html).toContain('<form method="get" action="/departures"');
    expect(md).toMatch(/\/departures\.md\?type=trek&difficulty=Moderate&maxDays=\d+&minSeats=2&maxPriceInr=\d+/);
  });

  it('the dataset page and its twin list every peak, the attribution and the download', async () => {
    const [html, md] = await Promise.all([
      get('/peak-data').then((r) => r.text()),
      get('/peak-data.md').then((r) => r.text()),
    ]);
    for (const peak of catalogue.peaks) {
      expect(html).toContain(`id="peak-${peak.id}"`);
      expect(md).toContain(`### ${peak.name}`);
    }
    for (const text of [html, md]) {
      expect(text).toContain('/peak-data/peaks.json');
      expect(text).toContain('CC-BY-4.0');
      expect(text).toContain(catalogue.site.dataset.name);
    }
    expect(md).toContain(`> ${catalogue.attribution}`);
    expect(html).toContain(catalogue.attribution);
  });

  it('the dataset page and its twin say how to read the CSV with its types, link every release and say where removed ids went', async () => {
    const [html, md] = await Promise.all([
      get('/peak-data').then((r) => r.text()),
      get('/peak-data.md').then((r) => r.text()),
    ]);
    for (const text of [html, md]) {
      // pandas, GDAL and DuckDB, each with the types of the columns (escaped in the HTML).
      for (const snippet of [
        'pd.read_csv(',
        'Int64',
        '/vsicurl/',
        'X_POSSIBLE_NAMES=longitude',
        'read_csv(',
        'BOOLEAN',
      ])
        expect(text, snippet).toContain(snippet);
      // Every release's files at their own addresses, the kept 2.0.0 among them.
      for (const path of [
        '/peak-data/2.1.0/peaks.csvt',
        '/peak-data/2.1.0/CHANGELOG.md',
        '/peak-data/2.0.0/peaks.json',
      ])
        expect(text, path).toContain(path);
      expect(text).toMatch(/retired-peak \(Retired Peak\): removed in 2\.1\.0\. A fixture record removed/);
      expect(text).toMatch(
        /renamed-peak \(Sample Peak\): removed in 2\.1\.0\..* It is Sample Peak \(sample-peak\) now\./,
      );
    }
    expect(md).toMatch(/^```python\nimport pandas as pd$/m);
  });

  it('the developer page and its twin cover every operation, every error code, the rate limit and every published file', async () => {
    const [html, md] = await Promise.all([
      get('/developers').then((r) => r.text()),
      get('/developers.md').then((r) => r.text()),
    ]);
    expect(html).toContain('id="errors"');
    expect(html).toContain('id="rate-limits"');
    for (const text of [html, md]) {
      for (const op of operations) expect(text, op.operationId).toContain(op.operationId);
      for (const code of Object.keys(errorCodes)) expect(text, code).toContain(code);
      for (const file of siteFiles) expect(text, file.path).toContain(file.path);
      expect(text).toContain('120 requests per 60 seconds');
      expect(text).toContain('curl -s');
    }
  });

  it('API errors point at the errors section of the developer page', async () => {
    const body = await (await get('/v1/trips/no-such-trip')).json();
    expect(new URL(body.error.documentationUrl).pathname + new URL(body.error.documentationUrl).hash).toBe(
      '/developers#errors',
    );
  });
});

describe('trip pages over HTTP', () => {
  it('are built once per deploy, and load their departures live, cached for at most 60 seconds', async () => {
    for (const p of paths.filter(isTripPath)) {
      const res = await get(p);
      expect(res.status, p).toBe(200);
      const html = await res.text();
      const slug = p.split('/').pop()!;
      expect(html, p).toContain(`data-live-departures-for="${slug}"`);
      expect(html, p).toContain(`href="/departures?trip=${slug}"`);
      const block = await get(`/departures/block?trip=${slug}`);
      expect(block.status, p).toBe(200);
      const maxAge = Math.max(
        ...[...(block.headers.get('cache-control') ?? '').matchAll(/max-age=(\d+)/g)].map((m) => Number(m[1])),
      );
      expect(maxAge, p).toBeLessThanOrEqual(60);
    }
  });

  it('carry JSON-LD: the trip as Product and TouristTrip with its price, its FAQPage and breadcrumbs; the board has an offer per departure', async () => {
    const html = await (await get('/treks/sample-trek')).text();
    const block = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1];
    const graph = JSON.parse(block ?? '{}')['@graph'] as Record<string, unknown>[];
    const trip = graph.find(
      (n) => Array.isArray(n['@type']) && (n['@type'] as string[]).includes('TouristTrip'),
    ) as Record<string, unknown>;
    expect(trip['@type']).toEqual(['Product', 'TouristTrip']);
    // The page is built once per deploy: its offer is the published price, never a seat count.
    expect(trip.offers).toEqual([expect.objectContaining({ price: 15000, priceCurrency: 'INR' })]);
    const departures = (await (await get('/v1/departures?trip=sample-trek')).json()).data as { status: string }[];
    const board = await (await get('/departures?trip=sample-trek')).text();
    const boardGraph = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(board)?.[1] ?? '{}');
    const listed = JSON.stringify(boardGraph);
    expect(departures.filter((d) => d.status !== 'cancelled').length).toBeGreaterThan(0);
    expect(listed).toContain('"priceCurrency":"INR"');
    const faq = graph.find((n) => n['@type'] === 'FAQPage') as { mainEntity: unknown[] };
    expect(faq.mainEntity.length).toBe(catalogue.trips.find((t) => t.trip.slug === 'sample-trek')?.content.faqs.length);
    expect(graph.some((n) => n['@type'] === 'BreadcrumbList')).toBe(true);
    expect(html).toContain('<meta property="og:title"');
  });

  it('show the price in Indian format, or "Price on request"', async () => {
    expect(await (await get('/treks/sample-trek')).text()).toContain('₹15,000');
    expect(await (await get('/expeditions/sample-expedition')).text()).toContain('Price on request');
  });

  it('answer an unknown trip with 404 and the list of trips, and a trip under the wrong section with a redirect', async () => {
    const missing = await get('/treks/no-such-trek');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('href="/treks/sample-trek"');
    const moved = await get('/expeditions/sample-trek');
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe('/treks/sample-trek');
  });
});

describe('filters and bad input', () => {
  it('filter values in the address never make an error page and are never written into it', async () => {
    for (const [p, page] of [
      ['/treks?region=%3Cscript%3E&days=forever', '/treks'],
      ['/peak-data?sort=nope&order=sideways&maxAltitude=high', '/peak-data'],
      [`/treks?difficulty=${'x'.repeat(3000)}`, '/treks'],
    ] as const) {
      const res = await get(p);
      expect(res.status, p).toBe(200);
      // The page is the one built for every visitor; the filter script reads the address in the browser.
      expect(await res.text(), p).toBe(await (await get(page)).text());
    }
  });

  it('the sitemap index points at a sitemap listing only this site, every trip included', async () => {
    const xml = await (await get('/sitemap-0.xml')).text();
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    );
    for (const { path } of catalogue.trips) expect(paths).toContain(path);
    expect(paths.every((p) => p.startsWith('/'))).toBe(true);
  });
});
