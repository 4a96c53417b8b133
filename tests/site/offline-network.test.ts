/**
 * The offline worker (/sw.js) on the network a reader in the hills has, in Chromium, with a
 * loopback proxy in front of the site (flaky-proxy.ts) that stalls or answers 502 and counts what
 * reaches the site:
 *   - a kept trip page is shown from its copy, saying so, when the network has not answered
 *     within the worker's bound (4 s, served shortened here) or answers with a server error;
 *     later pages are not slowed by the stalled requests;
 *   - each navigation reaches the site once: the thank-you page of an enquiry, the claim page and
 *     the departures block are not asked for twice, and keeping a page asks the site nothing more.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { projectRoot } from '../helpers/project.ts';
import { startFlakyProxy, type FlakyProxy } from './flaky-proxy.ts';
import { launchChromium } from './site.ts';
import { contextHearingTheWorker, type KeptAnswer } from './worker-answers.ts';

const trek = '/treks/sample-trek';
let server: InProcessServer;
let proxy: FlakyProxy;
let browser: Browser;

/** The worker's bound on the network as written in public/sw.js (4 s), and as it is served here. */
const writtenWaitMs = Number(
  /const networkWaitMs = (\d+);/.exec(readFileSync(path.join(projectRoot, 'public', 'sw.js'), 'utf8'))?.[1],
);
/**
 * The proxy serves the worker with a shorter bound, so the eight stalled visits below do not wait
 * 4 s each: the same code, the same reading of its one constant.
 */
const networkWaitMs = 2000;
const shortened = {
  path: '/sw.js',
  change: (worker: string) => {
    const changed = worker.replace(/const networkWaitMs = \d+;/, `const networkWaitMs = ${networkWaitMs};`);
    if (changed === worker) throw new Error('sw.js no longer reads its bound from `const networkWaitMs = …;`');
    return changed;
  },
};

beforeAll(async () => {
  server = await startInProcess(inject('fixtureSite'));
  proxy = await startFlakyProxy(server.url, shortened);
  browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await server?.stop();
});
beforeEach(() => {
  proxy.trouble(null);
  proxy.asked.length = 0;
});

async function withWorker<T>(run: (context: BrowserContext, page: Page) => Promise<T>): Promise<T> {
  const context = await contextHearingTheWorker(browser);
  try {
    return await run(context, await context.newPage());
  } finally {
    await context.close();
  }
}

/** Opens a page and waits until the worker has kept it (it is asked once the page is idle). */
async function openAndKeep(page: Page, pathname: string): Promise<void> {
  await page.goto(`${proxy.url}${pathname}`);
  await page.waitForFunction(
    (p) => (window as unknown as { keptAnswers: KeptAnswer[] }).keptAnswers.some((a) => a.page === p && a.kept),
    pathname,
    { timeout: 30_000 },
  );
}

const asked = (pathname: string) => proxy.asked.filter((a) => a.path === pathname);

describe('a kept trip page on a stalled or failing connection', () => {
  it(`is shown from its copy when the network has not answered within the worker's bound (${writtenWaitMs / 1000} s, served as ${networkWaitMs / 1000} s here), saying so, and later pages are not slowed`, async () => {
    expect(writtenWaitMs).toBe(4000);
    await withWorker(async (_context, page) => {
      await openAndKeep(page, trek);
      proxy.trouble('stall');
      for (let visit = 1; visit <= 8; visit += 1) {
        const started = Date.now();
        await page.goto(`${proxy.url}${trek}`, { timeout: 15_000 });
        const ms = Date.now() - started;
        expect(await page.locator('h1').innerText()).toBe('Fixture Trek');
        expect(await page.locator('.offline-note').innerText()).toMatch(
          new RegExp(
            `^The connection has not answered for ${networkWaitMs / 1000} seconds: this is the copy of this page saved on .+\\. Dates, seats and enquiries need a connection\\.$`,
          ),
        );
        // Styled from the kept files at once, not after a wait of their own.
        expect(await page.locator('.quick-facts').evaluate((el) => getComputedStyle(el).display)).toBe('grid');
        expect(ms, `visit ${visit}`).toBeGreaterThanOrEqual(networkWaitMs - 200);
        // Not held behind the earlier visits' stalled requests: those are never answered, so a visit
        // held behind them would not have loaded at all (goto gives up at 15 s).
      }
      // The live departures say they need a connection, never a copy.
      await page.locator('[data-live-departures-for] [data-live-departures="offline"]').waitFor({ timeout: 15_000 });
    });
  }, 150_000);

  it('is shown from its copy when the site answers with a server error', async () => {
    await withWorker(async (_context, page) => {
      await openAndKeep(page, trek);
      proxy.trouble('502', (p) => p === trek);
      const response = await page.goto(`${proxy.url}${trek}`);
      expect(response?.status()).toBe(200);
      expect(await page.locator('h1').innerText()).toBe('Fixture Trek');
      expect(await page.locator('.offline-note').innerText()).toMatch(
        /^The site could not answer just now: this is the copy of this page saved on /,
      );
      // A page that was never kept shows the error as it came.
      proxy.trouble('502', (p) => p === '/expeditions/sample-expedition');
      expect((await page.goto(`${proxy.url}/expeditions/sample-expedition`))?.status()).toBe(502);
    });
  }, 60_000);
});

describe('how often the site is asked', () => {
  it('once per navigation to the thank-you page, the claim page and the departures block, with the worker in charge', async () => {
    await withWorker(async (_context, page) => {
      await openAndKeep(page, trek);
      expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
      for (const pathname of [
        '/enquiry-sent?ref=enq-20260101-aaaaaaaaaa',
        '/agent/claim',
        '/departures/block?trip=sample-trek',
      ]) {
        proxy.asked.length = 0;
        await page.goto(`${proxy.url}${pathname}`);
        expect(asked(pathname).length, pathname).toBe(1);
      }
      expect(proxy.asked.filter((a) => a.preload !== undefined)).toEqual([]);
    });
  }, 60_000);

  it('keeping a page asks the site nothing more once the worker runs', async () => {
    await withWorker(async (_context, page) => {
      // The first visit, before the worker runs: keeping checks the page with the site once, and
      // the browser's copy of it is then checked once more on the next visit (docs/offline.md).
      await openAndKeep(page, trek);
      for (let visit = 2; visit <= 4; visit += 1) {
        // A visit from another page (the same address again would be a reload, which checks with the site by itself).
        await page.goto(`${proxy.url}/`);
        proxy.asked.length = 0;
        await openAndKeep(page, trek);
        expect(
          asked(trek).filter((a) => a.preload !== undefined),
          `visit ${visit}: navigation preload`,
        ).toEqual([]);
        expect(asked(trek).length, `visit ${visit}`).toBeLessThanOrEqual(visit === 2 ? 1 : 0);
      }
    });
  }, 60_000);
});

it('docs/offline.md states the bound the worker waits for the network', () => {
  expect(readFileSync(path.join(projectRoot, 'docs', 'offline.md'), 'utf8')).toContain(
    `not answered within ${writtenWaitMs / 1000} seconds`,
  );
});
