/**
 * Live dates in Chromium, at 320, 360 and 1280 px, with JavaScript on and off, each state checked
 * and pictured in light and dark: the departures board's search as a plain GET form, its months
 * grouped and mostly folded so a phone gets a short page, and every trip page showing its live
 * dates, seats and prices without JavaScript (the framed departures block, which fits its frame).
 * Nothing wider than the screen; axe clean, frames included. Pictures go to
 * test-results/departures/ for people to look at when a run asks for them (pictures.ts).
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeInEachScheme, axeOfMarkup } from './axe.ts';
import { picturesIn } from './pictures.ts';
import { fixtureSiteInChromium, isTripPath, stillPages } from './site.ts';

const site = fixtureSiteInChromium();
const pictures = picturesIn('departures');

type ContextOptions = Parameters<Browser['newContext']>[0];

async function withPage<T>(options: ContextOptions, run: (page: Page) => Promise<T>): Promise<T> {
  const context = await site.browser.newContext({ ...stillPages, ...options });
  try {
    return await run(await context.newPage());
  } finally {
    await context.close();
  }
}

const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/**
 * axe's findings on a page seen without JavaScript, checked as its markup (axe.ts), its
 * `<noscript>` content shown as it is without scripts (the frame loads, and axe checks inside it too).
 */
async function axeOfNoScriptPage(page: Page): Promise<string[]> {
  const markup = (await page.content())
    .replace(/<\/?noscript>/g, (tag) => tag.replace('noscript', 'div'))
    .replace(/<script[^>]*live-departures\.js[^>]*><\/script>/, '');
  return axeOfMarkup(page, markup);
}

interface Card {
  start: string;
  trip: string;
  status: string;
  seatsLeft: number | null;
  visible: boolean;
}

const boardCards = (page: Page): Promise<Card[]> =>
  page.$$eval('.departure', (els) =>
    els.map((e) => {
      const el = e as HTMLElement;
      return {
        start: el.dataset.start ?? '',
        trip: el.dataset.trip ?? '',
        status: el.dataset.status ?? '',
        seatsLeft: el.dataset.seatsLeft ? Number(el.dataset.seatsLeft) : null,
        visible: el.checkVisibility(),
      };
    }),
  );

for (const width of [320, 360, 1280]) {
  const view = { viewport: { width, height: width === 320 ? 568 : 800 } };

  describe(`${width} px, light and dark`, () => {
    for (const javaScriptEnabled of [true, false]) {
      const tag = `${width}-js-${javaScriptEnabled ? 'on' : 'off'}`;

      it(`the board: months grouped and folded, the search as a GET form (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
        const options = { ...view, javaScriptEnabled };
        await withPage(options, async (page) => {
          await page.goto(`${site.server.url}/departures`);
          const all = await boardCards(page);
          const months = await page.locator('details.board-month').count();
          expect(months).toBe(new Set(all.map((c) => c.start.slice(0, 7))).size);
          // A few dates in view, the rest folded into their months: a short page on a phone.
          const inView = all.filter((c) => c.visible).length;
          expect(inView).toBeGreaterThan(0);
          expect(inView).toBeLessThan(all.length);
          expect(await page.locator('details.board-month[open]').count()).toBeLessThan(months);
          // The search is folded behind a summary that names what it searches by, so the first dates
          // are on a phone's first screen; it opens with a tap, without a script.
          expect(await page.locator('details.search-filters').getAttribute('open')).toBeNull();
          expect(await page.locator('.search-filters-words').innerText()).toBe(
            'by dates, kind of trip, length, people and budget',
          );
          if (width < 400) expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(4200);
          expect(await fitsWidth(page)).toBe(true);
          expect(javaScriptEnabled ? await axeInEachScheme(page) : await axeOfNoScriptPage(page)).toEqual([]);
          await pictures.inEachScheme(page, `board-${tag}`);

          // A folded month opens with a tap on its summary, without a script.
          const foldedId = await page.locator('details.board-month:not([open])').first().getAttribute('id');
          await page.locator(`#${foldedId} > summary`).click();
          expect(await page.getAttribute(`#${foldedId}`, 'open')).toBe('');

          await page.click('details.search-filters > summary');
          const month = all[0]!.start.slice(0, 7);
          const lastDay = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0))
            .toISOString()
            .slice(0, 10);
          await page.fill('#search-from', `${month}-01`);
          await page.fill('#search-to', lastDay);
          await page.selectOption('#search-type', 'trek');
          await page.fill('#search-minSeats', '2');
          await Promise.all([
            page.waitForURL(/\/departures\?from=/),
            page.click('form[data-departure-search] button[type=submit]'),
          ]);
          const url = new URL(page.url());
          expect(Object.fromEntries(url.searchParams)).toMatchObject({
            from: `${month}-01`,
            to: lastDay,
            type: 'trek',
            minSeats: '2',
          });
          const shown = await boardCards(page);
          expect(shown.length).toBeGreaterThan(0);
          for (const card of shown) {
            expect(card.start.startsWith(month), card.start).toBe(true);
            expect(card.trip).toBe('sample-trek');
            expect(['open', 'filling']).toContain(card.status);
            expect(card.seatsLeft === null || card.seatsLeft >= 2).toBe(true);
            expect(card.visible).toBe(true);
          }
          // The search, in words, on the folded form; open, it shows what was chosen.
          expect(await page.locator('.search-filters-words').innerText()).toContain('treks, at least 2 seats left');
          await page.click('details.search-filters > summary');
          expect(await page.inputValue('#search-from')).toBe(`${month}-01`);
          expect(await fitsWidth(page)).toBe(true);
          expect(javaScriptEnabled ? await axeInEachScheme(page) : await axeOfNoScriptPage(page)).toEqual([]);
          await pictures.inEachScheme(page, `board-filtered-${tag}`);

          // "Show every departure" is a plain link back.
          await Promise.all([
            page.waitForURL(`${site.server.url}/departures`),
            page.click('.board-summary a[href="/departures"]'),
          ]);
          expect((await boardCards(page)).length).toBe(all.length);
        });
      }, 120_000);
    }

    it('every trip page shows its live dates, seats and prices without JavaScript, in a frame they fit', async () => {
      const options = { ...view, javaScriptEnabled: false };
      const trips = site.paths.filter(isTripPath);
      expect(trips.length).toBeGreaterThan(0);
      await withPage(options, async (page) => {
        for (const trip of trips) {
          await page.goto(`${site.server.url}${trip}`);
          const frame = page.frameLocator('iframe.departures-frame');
          const first = frame.locator('.departure').first();
          await first.waitFor();
          expect(await first.locator('.departure-dates').innerText()).toMatch(/\d{4}/);
          expect(await first.locator('.badge').innerText()).not.toBe('');
          expect(await first.locator('.departure-price').innerText()).toMatch(/₹|request/i);
          expect(await frame.locator('.departures-read').innerText()).toContain('read live at');
          // The frame is sized for what it shows: nothing cut off, no scrolling inside it.
          const inner = page.frames().find((f) => f.url().includes('/departures/block'))!;
          const fit = await inner.evaluate(() => ({
            content: Math.ceil(document.querySelector('.live-block-content')!.getBoundingClientRect().bottom),
            frame: window.innerHeight,
            wide: document.documentElement.scrollWidth > window.innerWidth,
          }));
          expect(fit.content, `${trip} frame content at ${width}px`).toBeLessThanOrEqual(fit.frame);
          expect(fit.wide).toBe(false);
          // The link for pages without frames is not needed where the frame shows the dates.
          expect(await page.locator('.departures-slot .live-link').isVisible()).toBe(false);
          expect(await fitsWidth(page)).toBe(true);
        }
        await page.goto(`${site.server.url}${trips[0]}`);
        await page.frameLocator('iframe.departures-frame').locator('.departure').first().waitFor();
        await pictures.inEachScheme(page.locator('.next-departures'), `trip-nojs-${width}`);
        expect(await axeOfNoScriptPage(page)).toEqual([]);
      });
    }, 120_000);
  });
}
