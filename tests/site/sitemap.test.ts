/**
 * The sitemap as crawlers read it from the running fixture site: /sitemap.xml answers with the
 * index (the same bytes as /sitemap-index.xml), the index parses with the `sitemap` package's
 * strict reader, and the sitemap validates against the sitemaps.org XSD (the copy the `sitemap`
 * package ships) with libxml2's xmllint (xmllint-wasm). Every public page is listed, the live
 * departures board included, each with a lastmod, and every listed page answers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ErrorLevel, XMLToSitemapIndexStream } from 'sitemap';
import { validateXML } from 'xmllint-wasm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { isTripPath } from './site.ts';

let server: InProcessServer;
const siteDir = inject('fixtureSite');
beforeAll(async () => {
  server = await startInProcess(siteDir);
});
afterAll(() => server?.stop());

const sitemapXsd = readFileSync(
  path.join(path.dirname(createRequire(import.meta.url).resolve('sitemap/package.json')), 'schema', 'sitemap.xsd'),
  'utf8',
);
const w3cDate = /^\d{4}-\d{2}-\d{2}$/;

async function text(pathname: string): Promise<{ status: number; type: string | null; body: string }> {
  const res = await fetch(`${server.url}${pathname}`);
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

/** The index read strictly: an unknown tag, attribute, URL or date fails. */
function readIndex(xml: string): Promise<{ url: string; lastmod?: string }[]> {
  return new Promise((resolve, reject) => {
    const items: { url: string; lastmod?: string }[] = [];
    Readable.from([xml])
      .pipe(new XMLToSitemapIndexStream({ level: ErrorLevel.THROW, logger: false }))
      .on('data', (item: { url: string; lastmod?: string }) => items.push(item))
      .on('error', reject)
      .on('end', () => resolve(items));
  });
}

/** Pages the build wrote whose canonical address is their own: what a crawler should be told about. */
function builtPublicPages(): string[] {
  const root = path.join(siteDir, 'dist', 'site');
  const pages: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.html')) {
        const html = readFileSync(file, 'utf8');
        const canonical = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
        const own = `/${path.relative(root, file)}`.replace(/(\/index)?\.html$/, '') || '/';
        if (canonical && new URL(canonical).pathname === own) pages.push(own);
      }
    }
  };
  walk(root);
  return pages.sort();
}

describe('sitemap', () => {
  it('/sitemap.xml answers with the sitemap index, the same bytes as /sitemap-index.xml', async () => {
    const [plain, index] = await Promise.all([text('/sitemap.xml'), text('/sitemap-index.xml')]);
    expect(plain.status).toBe(200);
    expect(plain.type).toMatch(/^application\/xml/);
    expect(plain.body).toBe(index.body);
    const items = await readIndex(index.body);
    expect(items).toHaveLength(1);
    expect(new URL(items[0]!.url).pathname).toBe('/sitemap-0.xml');
    expect(items[0]!.lastmod).toMatch(w3cDate);
  });

  it('validates against the sitemaps.org XSD', async () => {
    const sitemap = await text('/sitemap-0.xml');
    const result = await validateXML({
      xml: [{ fileName: 'sitemap-0.xml', contents: sitemap.body }],
      schema: [{ fileName: 'sitemap.xsd', contents: sitemapXsd }],
    });
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    // The validator refuses what breaks the schema.
    const broken = sitemap.body.replace('<lastmod>', '<lastmod>soon').replace('</loc>', '</loc><priority>2</priority>');
    expect(
      (
        await validateXML({
          xml: [{ fileName: 'broken.xml', contents: broken }],
          schema: [{ fileName: 'sitemap.xsd', contents: sitemapXsd }],
        })
      ).valid,
    ).toBe(false);
  });

  it('lists every public page, the departures board too, each with a lastmod, and each answers', async () => {
    const xml = (await text('/sitemap-0.xml')).body;
    const entries = [...xml.matchAll(/<url><loc>([^<]+)<\/loc>(?:<lastmod>([^<]*)<\/lastmod>)?/g)].map((m) => ({
      path: new URL(m[1]!).pathname,
      lastmod: m[2],
    }));
    const listed = entries.map((e) => e.path);
    for (const entry of entries) expect(entry.lastmod, entry.path).toMatch(w3cDate);
    expect(listed).toContain('/departures');
    expect(listed).toContain('/developers');
    expect(listed.filter(isTripPath).length).toBeGreaterThanOrEqual(2);
    expect(listed.filter((p) => p !== '/departures').sort()).toEqual(builtPublicPages());
    for (const p of listed) {
      const res = await fetch(`${server.url}${p}`);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type'), p).toMatch(/^text\/html/);
    }
  });
});
