/**
 * Seats shown in a browser are at most 60 seconds old (the contract's cap on the departures
 * cache): in Chromium, a trip page and the departures board opened just before a seat changes
 * show the new count when opened again 60 s after the change, though the browser keeps them a
 * while (they still show the old count 5 s after). The offline worker is blocked here: it asks
 * for the trip page's block afresh each time, and this is about what the browser's own cache may
 * show. A real minute passes: the browser's cache runs on its own clock.
 */
import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runCli } from '../departures/cli.ts';
import { startServer, type RunningServer } from '../helpers/project.ts';
import { launchChromium } from './site.ts';
import { newDataDir } from '../helpers/embedded-template.ts';

let server: RunningServer;
let browser: Browser;
let dataDir: string;
const env = () => ({ OPERATIONAL_STORAGE: 'embedded', DATA_DIR: dataDir });

beforeAll(async () => {
  dataDir = newDataDir('departures-freshness-');
  server = await startServer(inject('fixtureSite'), env());
  const added = await runCli(inject('fixtureSite'), ['add', '--trip', 'sample-trek', '--start', '2031-06-10', '--seats', '12', '--id', 'freshness-check'], env());
  if (added.code !== 0) throw new Error(added.stderr);
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const card = '[data-departure="freshness-check"]';

/** Seats left on the trip page, as its script loads them into the page. */
async function onTripPage(page: Page): Promise<string | null> {
  await page.goto(`${server.url}/treks/sample-trek`);
  await page.locator(`[data-live-departures-for] ${card}`).waitFor();
  return page.locator(`[data-live-departures-for] ${card}`).getAttribute('data-seats-left');
}

/** Seats left on the departures board. */
async function onBoard(page: Page): Promise<string | null> {
  await page.goto(`${server.url}/departures`);
  return page.locator(card).first().getAttribute('data-seats-left');
}

describe('seats in the browser', () => {
  it('show a change at most 60 seconds after it, on a trip page and on the board', { timeout: 150_000 }, async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const [trip, board] = [await context.newPage(), await context.newPage()];
    expect(await onTripPage(trip)).toBe('12');
    expect(await onBoard(board)).toBe('12');

    const changed = await runCli(inject('fixtureSite'), ['update', 'freshness-check', '--seats-left', '3'], env());
    expect(changed.code, changed.stderr).toBe(0);
    const changedAt = Date.now();

    // The browser keeps what it read: a few seconds later it still shows the old count.
    await new Promise((resolve) => setTimeout(resolve, changedAt + 5_000 - Date.now()));
    expect(await onTripPage(trip)).toBe('12');
    expect(await onBoard(board)).toBe('12');

    await new Promise((resolve) => setTimeout(resolve, changedAt + 60_000 - Date.now()));
    expect(await onTripPage(trip)).toBe('3');
    expect(await onBoard(board)).toBe('3');
    await context.close();
  });
});
