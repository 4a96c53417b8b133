/**
 * The site on a phone, as a trekker uses it: every page at 320, 360 and 1280 px, light and dark,
 * with and without JavaScript, never wider than the screen; a trip page's next departures within
 * its first two screens; a price and enquire bar in reach; a one-row header; meta descriptions
 * that fit a search result. The live departures come from the embedded store, seeded on start.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { isTripPath, launchChromium, sitemapPaths, stillPages } from './site.ts';

let server: InProcessServer;
let browser: Browser;
let pages: string[];
let trips: string[];

beforeAll(async () => {
  server = await startInProcess(inject('fixtureSite'));
  browser = await launchChromium();
  const listed = await sitemapPaths(server.url);
  trips = listed.filter(isTripPath);
  // The live pages are not in the sitemap's static list in every form: the board filtered to one trip is.
  pages = [...new Set([...listed, '/departures', `/departures?trip=${trips[0]?.split('/').pop()}`])];
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Phone screens as people hold them: 320 x 568 (the smallest in use) and 360 x 740. */
const screens = [
  { width: 320, height: 568 },
  { width: 360, height: 740 },
  { width: 1280, height: 800 },
] as const;

async function withPage<T>(options: Parameters<Browser['newContext']>[0], run: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ ...stillPages, ...options });
  try {
    return await run(await context.newPage());
  } finally {
    await context.close();
  }
}

/** Waits until the trip page's live block has put its answer in place (or said why not). */
async function liveBlockSettled(page: Page): Promise<void> {
  await page.locator('[data-live-departures-for] [data-live-departures]').first().waitFor({ timeout: 15_000 });
}

describe('the site on a phone', () => {
  for (const javaScriptEnabled of [true, false]) {
    it(`no page is wider than the screen at 320, 360 and 1280 px, light and dark (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
      const wide: string[] = [];
      for (const viewport of screens) {
        await withPage({ viewport, javaScriptEnabled }, async (page) => {
          for (const p of pages) {
            await page.emulateMedia({ colorScheme: 'light' });
            await page.goto(`${server.url}${p}`);
            if (javaScriptEnabled && isTripPath(p)) await liveBlockSettled(page);
            // Dark is the same page under its other colour scheme: no script of the site reads the scheme, so it needs no new load.
            for (const colorScheme of ['light', 'dark'] as const) {
              await page.emulateMedia({ colorScheme });
              const width = await page.evaluate(() => document.documentElement.scrollWidth);
              if (width > viewport.width) wide.push(`${p} at ${viewport.width}px (${colorScheme}) is ${width}px wide`);
            }
          }
        });
      }
      expect(wide).toEqual([]);
    }, 300_000);
  }

  it('every trip page shows its first departure within the first two screens of a phone', async () => {
    const late: string[] = [];
    for (const viewport of screens.slice(0, 2)) {
      await withPage({ viewport }, async (page) => {
        for (const trip of trips) {
          await page.goto(`${server.url}${trip}`);
          await liveBlockSettled(page);
          const first = page.locator('.departure').first();
          expect(await first.count(), `${trip} has departures`).toBe(1);
          const top = await first.evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
          if (top > 2 * viewport.height)
            late.push(`${trip} at ${viewport.width}px: first departure at ${Math.round(top)} px`);
          // Each date has its own action, and the status reads as a badge with a word.
          expect(await first.locator('a', { hasText: /Enquire for this date|Ask about other dates/ }).count()).toBe(1);
          expect((await first.locator('.badge').innerText()).trim()).not.toBe('');
        }
      });
    }
    expect(late).toEqual([]);
  }, 120_000);

  it('without JavaScript a trip page shows its next dates within the first two screens, and the board shows them within two screens', async () => {
    for (const viewport of screens.slice(0, 2)) {
      await withPage({ viewport, javaScriptEnabled: false }, async (page) => {
        const trip = trips[0]!;
        await page.goto(`${server.url}${trip}`);
        const frame = page.locator('[data-live-departures-for] iframe.departures-frame');
        const frameTop = await frame.evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
        expect(frameTop, `the framed dates at ${viewport.width}px`).toBeLessThan(2 * viewport.height);
        await page
          .frameLocator('[data-live-departures-for] iframe.departures-frame')
          .locator('.departure')
          .first()
          .waitFor();
        await Promise.all([
          page.waitForURL(/\/departures\?trip=/),
          page.frameLocator('iframe.departures-frame').locator('.departures-all-dates a').click(),
        ]);
        const first = page.locator('.departure').first();
        await first.waitFor();
        const top = await first.evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
        expect(top, `the board's first departure at ${viewport.width}px`).toBeLessThan(2 * viewport.height);
      });
    }
  }, 60_000);

  it('on a phone the price and an enquire link stay in reach while reading down to the form; on a desktop the bar is not needed', async () => {
    for (const viewport of screens) {
      await withPage({ viewport }, async (page) => {
        await page.goto(`${server.url}${trips[0]}`);
        // Halfway down to the form, where the bar rests.
        await page.evaluate(() =>
          window.scrollTo(
            0,
            (document.querySelector('#enquiry-form')!.getBoundingClientRect().top + window.scrollY) / 2,
          ),
        );
        const bar = page.locator('.enquire-bar');
        if (viewport.width >= 1000) {
          expect(await bar.isVisible(), `bar at ${viewport.width}px`).toBe(false);
          return;
        }
        expect(await bar.isVisible(), `bar at ${viewport.width}px`).toBe(true);
        const box = await bar.boundingBox();
        expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height + 1);
        expect(box!.y + box!.height).toBeGreaterThanOrEqual(viewport.height - 1);
        expect(await bar.innerText()).toMatch(/₹|on request/i);
        expect(await bar.locator('a[href*="enquire"]').count()).toBeGreaterThan(0);
      });
    }
  }, 60_000);

  it('the price bar never covers the focused field of the enquiry form, tabbing through it or after "Enquire for this date" (320 and 360 px, JavaScript on and off)', async () => {
    const covered: string[] = [];
    /**
     * Where the focused element begins and ends, and where the bar stands, in the viewport (the
     * bar rests above the form once the form is in view, so it may be above the field, or off
     * the screen). A message box is scrolled to its caret, so its first line is what must stand
     * clear of the bar.
     */
    const focusAndBar = (page: Page) =>
      page.evaluate(() => {
        const focused = document.activeElement as HTMLElement | null;
        const bar = document.querySelector('.enquire-bar')!.getBoundingClientRect();
        const box = focused?.getBoundingClientRect();
        let bottom = box?.bottom ?? 0;
        if (focused && box && focused.tagName === 'TEXTAREA') {
          const style = getComputedStyle(focused);
          bottom =
            box.top +
            Number.parseFloat(style.borderTopWidth) +
            Number.parseFloat(style.paddingTop) +
            Number.parseFloat(style.lineHeight);
        }
        return {
          name: focused?.getAttribute('name') ?? focused?.id ?? focused?.tagName ?? '',
          top: box?.top ?? 0,
          bottom,
          barTop: bar.top,
          barBottom: bar.bottom,
        };
      });
    for (const viewport of screens.slice(0, 2)) {
      for (const javaScriptEnabled of [true, false]) {
        // Reduced motion: the page scrolls at once, so where a field ends up can be measured.
        await withPage({ viewport, javaScriptEnabled, reducedMotion: 'reduce' }, async (page) => {
          const where = `${viewport.width}px, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`;
          await page.goto(`${server.url}${trips[0]}`);
          if (javaScriptEnabled) await liveBlockSettled(page);
          // Reading down the page, the form's first field just below the bar; then Tab through the form.
          const form = page.locator('form[data-enquiry]');
          await form.evaluate((el) =>
            window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - window.innerHeight + 40),
          );
          await form
            .locator(':is(input, select, textarea, button):visible')
            .first()
            .evaluate((el) => (el as HTMLElement).focus());
          await page.waitForTimeout(50);
          const count = await form.locator(':is(input, select, textarea, button):visible').count();
          for (let i = 0; i < count; i++) {
            if (i > 0) await page.keyboard.press('Tab');
            await page.waitForTimeout(50);
            const at = await focusAndBar(page);
            if (at.bottom > at.barTop + 0.5 && at.top < at.barBottom - 0.5)
              covered.push(
                `${where}: tabbing, "${at.name}" ends at ${Math.round(at.bottom)} px, under the bar from ${Math.round(at.barTop)} px`,
              );
          }
          if (!javaScriptEnabled) return;
          // "Enquire for this date" jumps to the form with the date chosen and a field focused.
          await page.goto(`${server.url}${trips[0]}`);
          await liveBlockSettled(page);
          const enquire = page.locator('[data-live-departures-for] a[data-enquire]').first();
          await enquire.click();
          await page.waitForTimeout(300);
          const at = await focusAndBar(page);
          if (at.bottom > at.barTop + 0.5 && at.top < at.barBottom - 0.5)
            covered.push(
              `${where}: after the jump, "${at.name}" ends at ${Math.round(at.bottom)} px, under the bar from ${Math.round(at.barTop)} px`,
            );
        });
      }
    }
    expect(covered).toEqual([]);
  }, 120_000);

  it('the peak table on a phone keeps each name in view while it scrolls sideways, says that it scrolls, and has no blank rows', async () => {
    for (const viewport of screens.slice(0, 2)) {
      for (const colorScheme of ['light', 'dark'] as const) {
        await withPage({ viewport, colorScheme }, async (page) => {
          const where = `${viewport.width}px ${colorScheme}`;
          await page.goto(`${server.url}/peak-data`);
          const table = page.locator('#peak-table');
          expect(await page.locator('#peak-table-cue').isVisible(), where).toBe(true);
          expect(await table.getAttribute('aria-describedby'), where).toBe('peak-table-cue');
          const nameLeft = () =>
            page
              .locator('#peak-table tbody th')
              .first()
              .evaluate((el) => el.getBoundingClientRect().left);
          const before = await nameLeft();
          await table.evaluate((el) => el.scrollTo({ left: el.scrollWidth, behavior: 'instant' }));
          expect(await table.evaluate((el) => el.scrollLeft), where).toBeGreaterThan(100);
          expect(Math.abs((await nameLeft()) - before), `${where}: the name column stays put`).toBeLessThan(1);
          // Every other cell, and every heading, on one line: no row taller than its name.
          const wrapped = await table.evaluate((el) =>
            [...el.querySelectorAll('td, thead th')]
              .filter((cell) => {
                const range = document.createRange();
                range.selectNodeContents(cell);
                return (
                  range.getBoundingClientRect().height > Number.parseFloat(getComputedStyle(cell).lineHeight) * 1.5
                );
              })
              .map((cell) => cell.textContent?.trim()),
          );
          expect(wrapped, where).toEqual([]);
        });
      }
    }
    // On a desktop every column is in view, so there is nothing to scroll and no cue.
    await withPage({ viewport: screens[2] }, async (page) => {
      await page.goto(`${server.url}/peak-data`);
      expect(await page.locator('#peak-table-cue').isVisible()).toBe(false);
      expect(await page.locator('#peak-table').evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(
        1,
      );
    });
  }, 60_000);

  it('the header is one compact row on a phone, with the menu behind one button', async () => {
    for (const viewport of screens.slice(0, 2)) {
      await withPage({ viewport }, async (page) => {
        await page.goto(`${server.url}/`);
        const header = await page.locator('header.site-header').boundingBox();
        expect(header!.height, `header at ${viewport.width}px`).toBeLessThanOrEqual(64);
        const menu = page.locator('header details.nav-menu');
        expect(await menu.locator('summary').isVisible()).toBe(true);
        await menu.locator('summary').click();
        expect(await menu.locator('a[href="/treks"]').isVisible()).toBe(true);
      });
    }
  }, 60_000);

  it('every page has a meta description short enough for a search result (at most 160 characters)', async () => {
    const long: string[] = [];
    for (const p of pages) {
      const html = await (await fetch(`${server.url}${p}`)).text();
      const description = /<meta name="description" content="([^"]*)"/.exec(html)?.[1];
      expect(description, p).toBeTruthy();
      if (description!.length > 160) long.push(`${p}: ${description!.length}`);
    }
    expect(long).toEqual([]);
  });
});
