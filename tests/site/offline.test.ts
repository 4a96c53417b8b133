/**
 * Trip pages offline, in a real Chromium with the real worker (/sw.js): a trip page opened once is
 * read again without a connection, saying it is the saved copy and that dates need a connection;
 * nothing of the API, the live functions, an enquiry or the live departures is ever kept; the
 * worker holds to its budget (checked with a server whose worker has a budget of one page); a
 * worker of a new storage version removes the old caches; docs/offline.md states the budget the
 * worker enforces.
 */
import { readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { copyBuiltSite, projectRoot, type ProjectCopy } from '../helpers/project.ts';
import { axeInEachScheme } from './axe.ts';
import { fixtureSiteInChromium, stillPages } from './site.ts';
import { contextHearingTheWorker } from './worker-answers.ts';

const site = fixtureSiteInChromium();
const trek = '/treks/sample-trek';
const expedition = '/expeditions/sample-expedition';
const storage = 'trip-pages-v1';

async function withContext<T>(
  options: Parameters<Browser['newContext']>[0],
  run: (context: BrowserContext, page: Page) => Promise<T>,
): Promise<T> {
  // The worker answers each request to keep a page once it is done with it: the tests wait for that.
  const context = await contextHearingTheWorker(site.browser, { ...stillPages, ...options });
  try {
    return await run(context, await context.newPage());
  } finally {
    await context.close();
  }
}

/** The paths the worker's cache holds, in its order. */
const keptPaths = (page: Page) =>
  page.evaluate(async (name) => (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname), storage);

/** The worker's answers so far to this page's requests to keep it. */
const answers = (page: Page) =>
  page.evaluate(() => (window as unknown as { keptAnswers: { page: string; kept: boolean }[] }).keptAnswers);

/**
 * Waits until the worker is done keeping `path` (asked once the page has loaded and the browser is
 * idle), and returns what its cache then holds.
 */
async function kept(page: Page, path: string, wanted = true): Promise<string[]> {
  for (let i = 0; i < 150; i++) {
    const answer = (await answers(page)).find((a) => a.page === path);
    if (answer) {
      expect(answer.kept, `${path} kept`).toBe(wanted);
      return keptPaths(page);
    }
    await page.waitForTimeout(200);
  }
  throw new Error(`the worker did not answer for ${path}`);
}

describe('trip pages offline', () => {
  it('a trip page opened once is read offline: reloaded without a connection it shows the trip, as a saved copy, at 320, 360 and 1280 px (light and dark)', async () => {
    for (const width of [320, 360, 1280]) {
      await withContext({ viewport: { width, height: 740 } }, async (context, page) => {
        const where = `${width}px`;
        await page.goto(`${site.server.url}${trek}`);
        await page.locator('[data-live-departures-for] [data-live-departures]').first().waitFor();
        const paths = await kept(page, trek);
        // The page and the styles and scripts it used; nothing it did not.
        expect(
          paths.some((p) => p.endsWith('.css')),
          where,
        ).toBe(true);
        expect(paths, where).toContain('/live-departures.js');

        await context.setOffline(true);
        await page.reload();
        expect(await page.locator('h1').innerText(), where).toBe('Fixture Trek');
        expect(await page.locator('.offline-note').innerText(), where).toMatch(
          /^You are offline: this is the copy of this page saved on .+\. Dates, seats and enquiries need a connection\.$/,
        );
        expect(await page.locator('#itinerary').isVisible(), where).toBe(true);
        // Styled as online: the stylesheet came from the cache.
        expect(await page.locator('.quick-facts').evaluate((el) => getComputedStyle(el).display), where).toBe('grid');
        // The live departures are never shown from a copy: they say they need a connection.
        const block = page.locator('[data-live-departures-for] [data-live-departures="offline"]');
        await block.waitFor();
        expect(await block.innerText(), where).toContain('need a connection');
        expect(await page.locator('[data-live-departures-for] .departure').count(), where).toBe(0);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), where).toBeLessThanOrEqual(width);
        expect(await axeInEachScheme(page), where).toEqual([]);

        // A page never opened says so offline, and lists the trips that were kept.
        await page.goto(`${site.server.url}${expedition}`);
        expect(await page.locator('h1').innerText(), where).toBe('You are offline');
        expect(
          await page.locator('main a').evaluateAll((links) => links.map((a) => a.getAttribute('href'))),
          where,
        ).toEqual([trek]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), where).toBeLessThanOrEqual(width);
      });
    }
  }, 180_000);

  it('without JavaScript no worker runs, so nothing is kept and the page is only read online', async () => {
    await withContext({ javaScriptEnabled: false }, async (context, page) => {
      await page.goto(`${site.server.url}${trek}`);
      await page.waitForTimeout(1500);
      expect(context.serviceWorkers()).toHaveLength(0);
      await context.setOffline(true);
      await expect(page.reload()).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);
    });
  });

  it('never keeps the API, the live functions, an enquiry or the live departures, nor answers them offline', async () => {
    await withContext({}, async (context, page) => {
      await page.goto(`${site.server.url}${trek}`);
      await kept(page, trek);
      const live = [
        '/v1/trips',
        '/v1/trips?type=trek',
        '/v1/departures?trip=sample-trek',
        '/departures',
        '/departures?trip=sample-trek',
        '/departures/block?trip=sample-trek',
        '/departures.md',
        '/treks/sample-trek.md',
        '/treks/sample-trek.ics',
        '/mcp',
        '/oauth/token',
        '/agent/claim',
        '/.well-known/oauth-authorization-server',
        '/api/bookings',
        '/auth.md',
      ];
      // Read online, from the page, as a reader or an agent in the same browser would…
      await page.evaluate(async (paths) => {
        for (const p of paths) await fetch(p).catch(() => undefined);
        await fetch('/api/bookings', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{}',
        }).catch(() => undefined);
      }, live);
      // …and offered to the worker as if the page had used them.
      await page.evaluate(async (paths) => {
        const registration = await navigator.serviceWorker.ready;
        registration.active?.postMessage({
          type: 'keep',
          page: location.pathname,
          assets: [...paths, ...performance.getEntriesByType('resource').map((e) => e.name)],
        });
        await new Promise((done) => navigator.serviceWorker.addEventListener('message', done, { once: true }));
      }, live);
      expect(await page.evaluate(() => caches.keys())).toEqual([storage]);
      const paths = await keptPaths(page);
      expect(paths).toContain(trek);
      for (const p of paths)
        expect(p, `kept: ${p}`).toMatch(
          /^\/(treks|expeditions)\/[a-z0-9-]+$|^\/_astro\/|^\/styles\/|^\/[a-z0-9-]+\.js$|^\/favicon\.svg$/,
        );
      for (const p of paths)
        expect(p).not.toMatch(/^\/(v1|api|mcp|oauth|agent|\.well-known|departures)|\.md$|\.ics$|^\/sw\.js$/);

      // Offline, each of them fails as any request without a connection does (past the browser's
      // own HTTP cache, which is not the worker's); the live block alone says why.
      await context.setOffline(true);
      const answers = await page.evaluate(async (paths) => {
        const out: Record<string, string> = {};
        for (const p of paths)
          out[p] = await fetch(p, { cache: 'no-store' }).then(
            (r) => `${r.status} ${(r.headers.get('Content-Type') ?? '').split(';')[0]}`,
            () => 'failed',
          );
        return out;
      }, live);
      for (const p of live) expect(answers[p], p).toBe(p.startsWith('/departures/block') ? '200 text/html' : 'failed');
    });
  }, 60_000);

  it('a worker of a new storage version removes the caches of the old one', async () => {
    await withContext({}, async (_context, page) => {
      await page.goto(`${site.server.url}/`);
      await page.evaluate(async () => (await caches.open('trip-pages-v0')).put('/treks/old-copy', new Response('old')));
      expect(await page.evaluate(() => caches.keys())).toEqual(['trip-pages-v0']);
      await page.goto(`${site.server.url}${trek}`);
      await kept(page, trek);
      expect(await page.evaluate(() => caches.keys())).toEqual([storage]);
    });
  }, 60_000);

  it('docs/offline.md states the budget the worker enforces', () => {
    const worker = readFileSync(path.join(projectRoot, 'public', 'sw.js'), 'utf8');
    const docs = readFileSync(path.join(projectRoot, 'docs', 'offline.md'), 'utf8');
    const [, pages, megabytes] = /const budget = \{ pages: (\d+), bytes: (\d+) \* 1024 \* 1024 \};/.exec(worker) ?? [];
    expect(pages).toBeDefined();
    expect(docs).toContain(`at most ${pages} trip pages and ${megabytes} MB`);
    expect(worker).toContain(`const storage = '${storage}';`);
  });
});

describe('the offline budget, enforced by the worker', () => {
  /** The built fixture site once more, its worker's budget lowered as given, on a server of its own. */
  const servers: { server: InProcessServer; copy: ProjectCopy }[] = [];
  async function siteWithBudget(budget: string): Promise<InProcessServer> {
    const copy = copyBuiltSite(inject('fixtureSite'));
    const worker = path.join(copy.dir, 'dist', 'site', 'sw.js');
    const original = readFileSync(worker, 'utf8');
    const lowered = original.replace(/const budget = \{[^}]*\};/, `const budget = ${budget};`);
    expect(lowered).not.toBe(original);
    writeFileSync(worker, lowered);
    // The build's compressed copies are of the worker as built: the host would send them instead.
    const compressed = path.join(path.dirname(realpathSync(worker)), '..', 'compressed', 'sw.js');
    for (const form of ['.br', '.gz']) rmSync(compressed + form, { force: true });
    const server = await startInProcess(copy.dir);
    servers.push({ server, copy });
    return server;
  }
  afterAll(async () => {
    for (const { server, copy } of servers) {
      await server.stop();
      copy.remove();
    }
  });

  it('keeps no more pages than its budget: the least recently opened goes, with the files only it used', async () => {
    const server = await siteWithBudget('{ pages: 1, bytes: 5 * 1024 * 1024 }');
    await withContext({}, async (_context, page) => {
      await page.goto(`${server.url}${trek}`);
      await kept(page, trek);
      await page.goto(`${server.url}${expedition}`);
      const paths = await kept(page, expedition);
      expect(paths.filter((p) => /^\/(treks|expeditions)\//.test(p))).toEqual([expedition]);
      // Every file left is one the kept page used.
      const used = await page.evaluate(
        async (name) =>
          (await (await caches.open(name)).match(location.pathname))?.headers.get('X-Offline-Assets')?.split(' ') ?? [],
        storage,
      );
      for (const p of paths.filter((x) => x !== expedition)) expect(used).toContain(p);
    });
  }, 120_000);

  it('keeps nothing of a page that alone is larger than its budget in bytes', async () => {
    const server = await siteWithBudget('{ pages: 12, bytes: 20 * 1024 }');
    await withContext({}, async (_context, page) => {
      await page.goto(`${server.url}${trek}`);
      expect(await kept(page, trek, false)).toEqual([]);
    });
  }, 120_000);
});
