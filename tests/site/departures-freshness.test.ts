/**
 * Seats shown in a browser are at most 60 seconds old (the contract's cap on the departures
 * cache). The policy's sum is checked in tests/unit/departures-cache.test.ts: a shared cache
 * passes an answer on at most 29 s old and says so (Age); a browser counts that Age in and shows
 * an answer until it is 58 s old, never after. Here Chromium is shown doing its part, without
 * waiting the minute out:
 *   - opened straight from the server, a trip page and the departures board keep the old count
 *     a few seconds after a seat changes (the browser reuses what it read);
 *   - opened through a loopback stand-in for a shared cache that says the departures answers it
 *     passes on are already 54 s old (Age: 54, as a cache that kept them would), they show the
 *     new count once that age has passed 58 s, five seconds later: Chromium's own clock runs,
 *     and the Age header stands for the time the answer had spent before it;
 *   - through a stand-in that says 25 s, the same pages opened again a moment later are not
 *     asked for at all (26 s old: still fresh), so answers through a stand-in are kept as any.
 * The offline worker is blocked: it asks for the trip page's block afresh each time, and this is
 * about what the browser's own cache may show.
 */
import { rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cachePolicy } from '../../service/http/cache-policy.ts';
import { runCli } from '../departures/cli.ts';
import { newDataDir } from '../helpers/embedded-template.ts';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { launchChromium } from './site.ts';

let server: InProcessServer;
interface AgedCache {
  url: string;
  server: Server;
  /** Departures answers passed on so far. */
  passed: number;
}
let agedCache: AgedCache;
let youngCache: AgedCache;
let browser: Browser;
let dataDir: string;
const env = () => ({ OPERATIONAL_STORAGE: 'embedded', DATA_DIR: dataDir });

/** The age the stand-in gives the departures answers it passes on, in seconds. */
const keptFor = 54;
/** The age of a stand-in whose answers stay fresh (max-age=30) for a few seconds more. */
const keptBriefly = 25;
/** The oldest a browser may show a departures answer (max-age + stale-while-revalidate). */
const oldestShown = 30 + 28;

/**
 * A shared cache's part, as far as a browser can tell: every answer passed on unchanged, but
 * those under the departures policy said to be `seconds` older (their Age raised).
 */
function startAgedCache(target: InProcessServer, seconds: number): Promise<AgedCache> {
  const cache = { passed: 0 } as AgedCache;
  cache.server = createServer((req, res) => {
    const forward = request(
      {
        host: '127.0.0.1',
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: `127.0.0.1:${target.port}` },
      },
      (answer) => {
        const headers = { ...answer.headers };
        if (headers['cache-control'] === cachePolicy.departures) {
          headers.age = String(Number(headers.age ?? 0) + seconds);
          cache.passed += 1;
        }
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  return new Promise((resolve) =>
    cache.server.listen(0, '127.0.0.1', () => {
      cache.url = `http://127.0.0.1:${(cache.server.address() as AddressInfo).port}`;
      resolve(cache);
    }),
  );
}

const stop = (cache: AgedCache | undefined) =>
  new Promise((done) => (cache ? cache.server.close(done) : done(undefined)));

beforeAll(async () => {
  dataDir = newDataDir('departures-freshness-');
  server = await startInProcess(inject('fixtureSite'), env());
  const added = await runCli(
    inject('fixtureSite'),
    ['add', '--trip', 'sample-trek', '--start', '2031-06-10', '--seats', '12', '--id', 'freshness-check'],
    env(),
  );
  if (added.code !== 0) throw new Error(added.stderr);
  agedCache = await startAgedCache(server, keptFor);
  youngCache = await startAgedCache(server, keptBriefly);
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stop(agedCache);
  await stop(youngCache);
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const card = '[data-departure="freshness-check"]';

/** Seats left on the trip page, as its script loads them into the page. */
async function onTripPage(page: Page, origin: string): Promise<string | null> {
  await page.goto(`${origin}/treks/sample-trek`);
  await page.locator(`[data-live-departures-for] ${card}`).waitFor();
  return page.locator(`[data-live-departures-for] ${card}`).getAttribute('data-seats-left');
}

/** Seats left on the departures board. */
async function onBoard(page: Page, origin: string): Promise<string | null> {
  await page.goto(`${origin}/departures`);
  return page.locator(card).first().getAttribute('data-seats-left');
}

const pause = (until: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, until - Date.now())));

describe('seats in the browser', () => {
  it(
    'show a change once the answer the browser read is older than the policy lets it show, on a trip page and on the board',
    { timeout: 60_000 },
    async () => {
      const contexts: BrowserContext[] = [
        await browser.newContext({ serviceWorkers: 'block' }),
        await browser.newContext({ serviceWorkers: 'block' }),
      ];
      const [trip, board, agedTrip, agedBoard] = await Promise.all(
        [...contexts, ...contexts].map((context) => context.newPage()),
      );
      expect(await onTripPage(trip!, server.url)).toBe('12');
      expect(await onBoard(board!, server.url)).toBe('12');
      expect(await onTripPage(agedTrip!, agedCache.url)).toBe('12');
      expect(await onBoard(agedBoard!, agedCache.url)).toBe('12');
      // The last of the aged answers was read now at the latest, already `keptFor` seconds old.
      const agedReadBy = Date.now();

      const changed = await runCli(inject('fixtureSite'), ['update', 'freshness-check', '--seats-left', '3'], env());
      expect(changed.code, changed.stderr).toBe(0);
      const changedAt = Date.now();

      // The browser keeps what it read: a few seconds later, straight from the server, it still shows the old count.
      await pause(changedAt + 3_000);
      expect(await onTripPage(trip!, server.url)).toBe('12');
      expect(await onBoard(board!, server.url)).toBe('12');

      // Answers that reached it already `keptFor` s old are too old to show once the browser has held them past the rest of the 58 s.
      await pause(agedReadBy + (oldestShown - keptFor + 1) * 1000);
      expect(await onTripPage(agedTrip!, agedCache.url)).toBe('3');
      expect(await onBoard(agedBoard!, agedCache.url)).toBe('3');
      await Promise.all(contexts.map((context) => context.close()));
    },
  );

  it('are kept as usual through the stand-in while they are fresh: opened again, they are not asked for', async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const [trip, board] = [await context.newPage(), await context.newPage()];
    expect(await onTripPage(trip, youngCache.url)).toBe('3');
    expect(await onBoard(board, youngCache.url)).toBe('3');
    const passed = youngCache.passed;
    expect(passed).toBeGreaterThanOrEqual(2);
    await pause(Date.now() + 1_000);
    expect(await onTripPage(trip, youngCache.url)).toBe('3');
    expect(await onBoard(board, youngCache.url)).toBe('3');
    expect(youngCache.passed, 'departures answers asked for again').toBe(passed);
    await context.close();
  });
});
