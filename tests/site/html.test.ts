/**
 * Markup and weight: every page validates with html-validate (.htmlvalidate.json), and the real
 * catalogue's pages stay inside the budgets (trip page HTML under 40 KB gzipped, its JavaScript
 * under 5 KB gzipped and never render-blocking).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { HtmlValidate, type ConfigData } from 'html-validate';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { projectRoot } from '../helpers/project.ts';
import { realSite } from '../helpers/real-site.ts';
import { isTripPath, sitemapPaths } from './site.ts';

const validator = new HtmlValidate(
  JSON.parse(readFileSync(path.join(projectRoot, '.htmlvalidate.json'), 'utf8')) as ConfigData,
);
const gzipped = (text: string | Uint8Array) => gzipSync(text, { level: 9 }).length;

describe('HTML validity (fixture catalogue)', () => {
  let server: InProcessServer;
  beforeAll(async () => {
    server = await startInProcess(inject('fixtureSite'));
  });
  afterAll(() => server?.stop());

  it('every page, a sorted table, the live pages and the 404 page validate', async () => {
    const paths = [
      ...(await sitemapPaths(server.url)),
      '/peak-data/by/grade-asc',
      '/departures?trip=sample-trek',
      '/agent/claim',
      '/treks/no-such-trek',
      '/no-such-page',
    ];
    const problems: string[] = [];
    for (const p of paths) {
      const html = await (await fetch(`${server.url}${p}`)).text();
      // Values that went missing on the way into a template show up as these words.
      for (const slip of ['undefined', 'NaN', '[object Object]'])
        if (html.replace(/<script[\s\S]*?<\/script>/g, '').includes(slip))
          problems.push(`${p}: the page says "${slip}"`);
      const report = await validator.validateString(html, p);
      for (const result of report.results)
        for (const m of result.messages) problems.push(`${p}:${m.line}:${m.column} ${m.ruleId}: ${m.message}`);
    }
    expect(problems).toEqual([]);
  });
});

describe('page weight (real catalogue)', () => {
  let server: InProcessServer;
  let paths: string[];
  beforeAll(async () => {
    server = await startInProcess(await realSite());
    paths = await sitemapPaths(server.url);
  }, 660_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('every trip page is under 40 KB of gzipped HTML, with under 5 KB of gzipped JavaScript, none render-blocking', async () => {
    const trips = paths.filter(isTripPath);
    expect(trips.length).toBeGreaterThanOrEqual(10);
    const report: string[] = [];
    for (const p of trips) {
      const html = await (await fetch(`${server.url}${p}`)).text();
      const htmlKb = gzipped(html) / 1024;
      expect(htmlKb, `${p} HTML`).toBeLessThan(40);
      const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1] ?? '');
      let jsBytes = 0;
      for (const attrs of scripts) {
        if (/type="application\/ld\+json"/.test(attrs)) continue;
        const src = /src="([^"]+)"/.exec(attrs)?.[1];
        expect(src, `${p}: inline scripts are refused by the CSP`).toBeDefined();
        expect(/\b(defer|async)\b|type="module"/.test(attrs), `${p}: ${attrs} must not block rendering`).toBe(true);
        jsBytes += gzipped(new Uint8Array(await (await fetch(new URL(src ?? '', server.url))).arrayBuffer()));
      }
      expect(jsBytes / 1024, `${p} JavaScript`).toBeLessThan(5);
      report.push(`${p}: HTML ${htmlKb.toFixed(1)} KB, JS ${(jsBytes / 1024).toFixed(1)} KB (gzip)`);
    }
    console.log(report.join('\n'));
  });

  it('the home page, indexes, dataset and developer page stay small, and no page ships a render-blocking script', async () => {
    for (const p of paths.filter((x) => !isTripPath(x))) {
      const html = await (await fetch(`${server.url}${p}`)).text();
      expect(gzipped(html) / 1024, p).toBeLessThan(p === '/peak-data' || p === '/developers' ? 60 : 40);
      for (const m of html.matchAll(/<script\b([^>]*)>/g)) {
        const attrs = m[1] ?? '';
        expect(/application\/ld\+json|\b(defer|async)\b|type="module"/.test(attrs), `${p}: ${attrs}`).toBe(true);
      }
    }
  });
});
