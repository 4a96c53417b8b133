/**
 * A trip page as a trekker weighs it up, in a real Chromium: the whole price beside the price
 * (total with GST, deposit, cancellation terms linked to the full ones, what is included and
 * not); on a desktop two columns with the panel of price, next dates and the enquire button
 * kept in view; on paper the itinerary, the kit list, the price and the contacts only.
 */
import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runCommand } from '../departures/cli.ts';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { picturesIn } from './pictures.ts';
import { fixtureSiteInChromium, stillPages } from './site.ts';
import { newDataDir } from '../helpers/embedded-template.ts';

const site = fixtureSiteInChromium();
const trek = '/treks/sample-trek';
const expedition = '/expeditions/sample-expedition';

async function withPage<T>(options: Parameters<Browser['newContext']>[0], run: (page: Page) => Promise<T>): Promise<T> {
  const context = await site.browser.newContext({ ...stillPages, ...options });
  try {
    return await run(await context.newPage());
  } finally {
    await context.close();
  }
}

const liveBlock = (page: Page) =>
  page.locator('[data-live-departures-for] [data-live-departures]').first().waitFor({ timeout: 15_000 });

describe('a trip page', () => {
  it('gives the whole price beside the price: the total with GST, the deposit, the cancellation terms and what is included', async () => {
    await withPage({ viewport: { width: 360, height: 740 }, javaScriptEnabled: false }, async (page) => {
      await page.goto(`${site.server.url}${trek}`);
      const section = page.locator('section[aria-labelledby="price"]');
      const box = section.locator('.price-box');
      expect(await box.locator('.amount').innerText()).toBe('₹15,000 per person');
      const terms = Object.fromEntries(
        await box
          .locator('.price-terms > div')
          .evaluateAll((rows) =>
            rows.map((r) => [r.querySelector('dt')?.textContent?.trim(), r.querySelector('dd')?.textContent?.trim()]),
          ),
      );
      expect(terms).toEqual({
        'With 5% GST': '₹15,750 per person',
        Deposit: '20% confirms your seat, once a guide has called you',
        Cancellation:
          'Fixture cancellation terms in one line: a full refund up to 30 days before departure. The full terms',
      });
      // The link leads to the trip's own question about cancelling, which has the terms in full.
      const link = box.locator('a', { hasText: 'The full terms' });
      expect(await link.getAttribute('href')).toBe('#cancellation-terms');
      expect(await page.locator('dt#cancellation-terms').innerText()).toBe('What are the cancellation terms?');
      // When the facts were last checked, machine-readable, the same date as the JSON-LD's dateModified.
      expect(await page.getAttribute('#references + p time', 'datetime')).toBe('2026-11-22');
      expect(await page.locator('#references + p time').innerText()).toBe('22 Nov 2026');
      const graph = JSON.parse(
        (await page.locator('script[type="application/ld+json"]').first().textContent()) ?? '{}',
      )['@graph'] as Record<string, unknown>[];
      expect(graph.find((n) => n['@type'] === 'WebPage')?.dateModified).toBe('2026-11-22');
      // What is included and not stands right under the price, from the trip's own lists.
      expect(await section.locator('h3').allInnerTexts()).toEqual(['Included', 'Not included']);
      expect(await section.locator('ul.ticks li').count()).toBeGreaterThan(0);
      expect(await section.locator('ul.crosses li').count()).toBeGreaterThan(0);

      // Priced on request: the rate of GST, but no total and no link to terms the trip does not have.
      await page.goto(`${site.server.url}${expedition}`);
      const other = page.locator('section[aria-labelledby="price"] .price-box');
      expect(await other.locator('.amount').innerText()).toBe('Price on request');
      expect(await other.innerText()).toContain('5% GST is added to the price we quote');
      expect(await other.locator('a').count()).toBe(0);
    });
  });

  // Each width in one colour scheme: the layout is the same in both (the scheme changes colours only).
  it('from 64rem stands in two columns, the panel of price, next dates and enquire button beside it and in view (1024 px light, 1280 px dark)', async () => {
    for (const [width, colorScheme] of [
      [1024, 'light'],
      [1280, 'dark'],
    ] as const) {
      await withPage({ viewport: { width, height: 800 }, colorScheme }, async (page) => {
        await page.goto(`${site.server.url}${trek}`);
        await liveBlock(page);
        const panel = page.locator('aside.trip-panel');
        const [main, side] = [await page.locator('.trip-body').boundingBox(), await panel.boundingBox()];
        expect(side!.x, `${width}px: the panel is right of the page`).toBeGreaterThanOrEqual(main!.x + main!.width);
        expect(side!.y, `${width}px: the panel starts in the first screen`).toBeLessThan(200);
        expect(await panel.locator('.amount').innerText()).toBe('₹15,000 per person');
        expect(await panel.innerText()).toContain('₹15,750 with 5% GST');
        expect(await panel.locator('a.button[href="#enquire"]').isVisible()).toBe(true);
        // The dates up to the third that can still be joined, the others among them as they are; the board has them all.
        const all = await panel
          .locator('.departure')
          .evaluateAll((cards) => cards.map((c) => (c as HTMLElement).dataset.status));
        const shown = await panel
          .locator('.departure:visible')
          .evaluateAll((cards) => cards.map((c) => (c as HTMLElement).dataset.status));
        const third = all.findIndex(
          (_, i) => all.slice(0, i + 1).filter((s) => s === 'open' || s === 'filling').length === 3,
        );
        expect(shown.length, `${width}px`).toBeGreaterThan(0);
        expect(shown).toEqual(third === -1 ? all : all.slice(0, third + 1));
        const board = panel.locator('.departures-all-dates a[href="/departures?trip=sample-trek"]');
        expect(await board.isVisible()).toBe(true);
        expect(await board.innerText()).toBe(
          all.length === 1 ? 'This date on the board' : `All ${all.length} dates on the board`,
        );
        // Reading on, the panel stays in view with its price and button.
        await page.locator('#faqs').scrollIntoViewIfNeeded();
        const kept = await panel.locator('a.button[href="#enquire"]').boundingBox();
        expect(kept!.y, `${width}px: the enquire button after scrolling`).toBeGreaterThanOrEqual(0);
        expect(kept!.y + kept!.height).toBeLessThanOrEqual(800);
        // The bar of the phone is not needed here.
        expect(await page.locator('.enquire-bar').isVisible()).toBe(false);
      });
    }
  }, 60_000);

  it("on a phone is one column: the dates before the facts (the first on the first screen), the price in the bar, the panel's own price and button hidden", async () => {
    for (const width of [320, 360]) {
      await withPage({ viewport: { width, height: 740 } }, async (page) => {
        await page.goto(`${site.server.url}${trek}`);
        await liveBlock(page);
        const [facts, dates] = [
          await page.locator('.quick-facts').boundingBox(),
          await page.locator('#departures').boundingBox(),
        ];
        expect(facts!.y).toBeGreaterThan(dates!.y + dates!.height);
        expect(Math.abs(dates!.x - facts!.x)).toBeLessThan(20);
        expect(await page.locator('.trip-panel .panel-only').first().isVisible()).toBe(false);
        // Every date shown, not the panel's three.
        expect(await page.locator('.trip-panel .departure:visible').count()).toBe(
          await page.locator('.trip-panel .departure').count(),
        );
      });
    }
  }, 60_000);

  it('prints the itinerary, the kit list, the price and the contacts, and nothing that needs a screen', async () => {
    await withPage({ viewport: { width: 1280, height: 800 } }, async (page) => {
      await page.goto(`${site.server.url}${trek}`);
      await liveBlock(page);
      await page.emulateMedia({ media: 'print' });
      const shown = async (selector: string) => page.locator(selector).first().isVisible();
      for (const kept of [
        'h1',
        '.quick-facts',
        '#itinerary',
        'figure.altitude',
        '.itinerary-table',
        '.days',
        '#gear',
        '#price',
        '.price-box',
        '#included',
        '#contacts',
      ]) {
        expect(await shown(kept), `printed: ${kept}`).toBe(true);
      }
      for (const left of [
        '.site-header nav',
        '.breadcrumbs',
        '.trip-panel',
        '#departures',
        'form[data-enquiry]',
        '.enquire-bar',
        '.toc',
        '#faqs',
        '#references',
        '.art.banner',
        '.site-footer',
      ]) {
        expect(await shown(left), `not printed: ${left}`).toBe(false);
      }
      expect(await page.locator('.trip-contacts').innerText()).toMatch(
        /hello@theverticaltribe\.com.*\/treks\/sample-trek/s,
      );
      // Chromium's own PDF of the page: A4, a few pages.
      const pdf = await page.pdf({ format: 'A4' });
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page\b/g) ?? []).length;
      expect(pages).toBeGreaterThanOrEqual(1);
      expect(pages).toBeLessThanOrEqual(4);
    });
  }, 60_000);
});

describe("the desktop panel's dates", () => {
  // Departures set before the server first reads them (so none are seeded): the first two sold
  // out, then open, filling and cancelled ones.
  let server: InProcessServer;
  let dataDir: string;
  const plan: [start: string, extra: string[]][] = [
    ['2031-06-05', ['--seats-left', '0']],
    ['2031-06-19', ['--seats-left', '0']],
    ['2031-07-05', ['--seats-left', '9']],
    ['2031-07-19', ['--seats-left', '5', '--status', 'cancelled']],
    ['2031-08-05', ['--seats-left', '2']],
    ['2031-08-19', ['--seats-left', '12']],
    ['2031-09-05', ['--seats-left', '12']],
  ];
  beforeAll(async () => {
    dataDir = newDataDir('trip-panel-');
    for (const [start, extra] of plan) {
      const added = await runCommand(
        inject('fixtureSite'),
        ['add', '--trip', 'sample-trek', '--start', start, '--seats', '12', ...extra],
        { DATA_DIR: dataDir, OPERATIONAL_STORAGE: 'embedded' },
      );
      expect(added.code, added.stderr).toBe(0);
    }
    server = await startInProcess(inject('fixtureSite'), { DATA_DIR: dataDir, OPERATIONAL_STORAGE: 'embedded' });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows the next dates that can be joined, the sold-out and cancelled ones among them as such, and "All 7 dates" on the board', async () => {
    await withPage({ viewport: { width: 1280, height: 900 } }, async (page) => {
      await page.goto(`${server.url}${trek}`);
      await liveBlock(page);
      const panel = page.locator('aside.trip-panel');
      const shown = await panel
        .locator('.departure:visible')
        .evaluateAll((cards) =>
          cards.map((c) => `${(c as HTMLElement).dataset.start} ${(c as HTMLElement).dataset.status}`),
        );
      expect(shown).toEqual([
        '2031-06-05 sold_out',
        '2031-06-19 sold_out',
        '2031-07-05 open',
        '2031-07-19 cancelled',
        '2031-08-05 filling',
        '2031-08-19 open',
      ]);
      // Those that cannot be joined say so, in one short row: no price, no button.
      const soldOut = panel.locator('.departure[data-status="sold_out"]').first();
      expect(await soldOut.locator('.badge').innerText()).toBe('Sold out');
      expect(await soldOut.locator('.departure-foot').isVisible()).toBe(false);
      expect(await panel.locator('.departure[data-status="open"] [data-enquire]').first().isVisible()).toBe(true);
      const board = panel.locator('.departures-all-dates a');
      expect(await board.innerText()).toBe('All 7 dates on the board');
      expect(await board.getAttribute('href')).toBe('/departures?trip=sample-trek');
      // The page's own link without a count gives way to it.
      expect(await panel.locator('.departures-more .all-dates').isVisible()).toBe(false);
      await picturesIn('trip-page').take(panel, 'panel-1280');

      // On a phone every date shows, as before.
      await page.setViewportSize({ width: 360, height: 800 });
      expect(await panel.locator('.departure:visible').count()).toBe(7);
    });
  }, 60_000);
});
