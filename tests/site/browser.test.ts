/**
 * Every page of the sitemap in a real Chromium through the local server: key content, working
 * links, no axe violations (light and dark, phone and desktop), readable with JavaScript off.
 * Pictures of the home page and a trip page go to test-results/site/ for people to look at when a
 * run asks for them (pictures.ts).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeInEachScheme } from './axe.ts';
import { picturesIn } from './pictures.ts';
import { fixtureSiteInChromium, isTripPath, stillPages } from './site.ts';

const site = fixtureSiteInChromium();
const pictures = picturesIn('site');

async function withPage<T>(
  options: Parameters<Browser['newContext']>[0],
  run: (page: Page, context: BrowserContext) => Promise<T>,
): Promise<T> {
  const context = await site.browser.newContext({ ...stillPages, ...options });
  try {
    return await run(await context.newPage(), context);
  } finally {
    await context.close();
  }
}

describe('pages in a browser', () => {
  it('the sitemap lists the home page, both indexes, every trip, the dataset and the developer page', () => {
    for (const p of [
      '/',
      '/treks',
      '/expeditions',
      '/peak-data',
      '/developers',
      '/treks/sample-trek',
      '/expeditions/sample-expedition',
    ])
      expect(site.paths).toContain(p);
  });

  it('every page loads with one h1, a canonical URL, a Markdown alternate and no console errors', async () => {
    await withPage({}, async (page) => {
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(`${page.url()}: ${m.text()}`));
      page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
      for (const p of site.paths) {
        const response = await page.goto(`${site.server.url}${p}`);
        expect(response?.status(), p).toBe(200);
        expect(await page.locator('h1').count(), p).toBe(1);
        expect(await page.locator('link[rel="canonical"]').getAttribute('href'), p).toMatch(
          new RegExp(`${p === '/' ? '/' : p}$`),
        );
        const twin = await page.locator('link[rel="alternate"][type="text/markdown"]').getAttribute('href');
        expect(twin, p).toBe(p === '/' ? '/index.md' : `${p}.md`);
      }
      expect(errors).toEqual([]);
    });
  }, 120_000);

  it('every link on every page leads somewhere', async () => {
    const links = new Set<string>();
    await withPage({}, async (page) => {
      for (const p of site.paths) {
        await page.goto(`${site.server.url}${p}`);
        for (const href of await page
          .locator('a[href]')
          .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href))) {
          const url = new URL(href);
          if (url.origin === site.server.url) links.add(url.pathname + url.search);
        }
      }
    });
    const broken: string[] = [];
    for (const link of links) {
      const res = await fetch(`${site.server.url}${link}`, { redirect: 'manual' });
      if (res.status >= 400) broken.push(`${link} ${res.status}`);
    }
    expect(broken).toEqual([]);
    expect(links.size).toBeGreaterThan(20);
  }, 120_000);

  it('axe finds no violations on any page (light and dark, phone and desktop)', async () => {
    const found: string[] = [];
    for (const width of [360, 1280]) {
      await withPage({ viewport: { width, height: 800 } }, async (page) => {
        for (const p of site.paths) {
          await page.goto(`${site.server.url}${p}`);
          const seen = await axeInEachScheme(page);
          found.push(...seen.map((finding) => `${width}px ${p}: ${finding}`));
        }
      });
    }
    expect(found).toEqual([]);
  }, 300_000);

  it('a trip page reads in full with JavaScript off: facts, profile, itinerary, departures, price, how to enquire', async () => {
    await withPage({ javaScriptEnabled: false }, async (page) => {
      await page.goto(`${site.server.url}/treks/sample-trek`);
      const text = (await page.locator('main').textContent()) ?? '';
      for (const part of [
        'Fixture Trek',
        'Max altitude',
        'Itinerary',
        'Day 1: Start to camp',
        'Fitness',
        'Included',
        'Not included',
        'Gear list',
        'Departures',
        '₹15,000',
        'Questions people ask',
        'Sources',
      ]) {
        expect(text, part).toContain(part);
      }
      expect(await page.locator('svg[role="img"] title').first().textContent()).toContain('Altitude profile');
      expect(await page.locator('a[href^="mailto:"]').first().getAttribute('href')).toContain('subject=');
      expect(await page.locator('form[action="/api/bookings"][method="post"]').count()).toBe(1);
    });
  });

  it('the filters work with JavaScript off: choosing a value hides the other trips at once', async () => {
    await withPage({ javaScriptEnabled: false }, async (page) => {
      await page.goto(`${site.server.url}/expeditions`);
      const visible = () => page.locator('.cards > li:visible').count();
      const all = await page.locator('.cards > li').count();
      expect(await visible()).toBe(all);
      await page.click('[data-trip-filter] summary');
      const difficulty = page.locator('[data-trip-filter] input[name="difficulty"]:not([value=""])').first();
      const chosen = await difficulty.getAttribute('value');
      await difficulty.check();
      const shown = await page
        .locator('.cards > li:visible')
        .evaluateAll((cards) => cards.map((c) => c.getAttribute('data-difficulty')));
      expect(shown.length).toBeGreaterThan(0);
      expect(shown.every((d) => d === chosen)).toBe(true);
      await page.click('[data-trip-filter] a:text("Show all")');
      expect(await visible()).toBe(all);
    });
  });

  it('the filters read the address with JavaScript, count what they show and say what they did not recognise', async () => {
    await withPage({}, async (page) => {
      await page.goto(`${site.server.url}/treks?difficulty=Moderate&days=forever`);
      const shown = await page
        .locator('.cards > li:visible')
        .evaluateAll((cards) => cards.map((c) => c.getAttribute('data-difficulty')));
      expect(shown.every((d) => d === 'moderate')).toBe(true);
      const status = await page.locator('[data-finder-status]').innerText();
      expect(status).toContain('We did not recognise length "forever"');
      expect(status).toMatch(/Showing \d+ of \d+/);
      await page.locator('[data-trip-filter] input[name="difficulty"][value=""]').check();
      expect(new URL(page.url()).search).toBe('');
    });
  });

  it('the trip indexes lead into the departure search: the kind of trip without JavaScript, the choice of filters with it', async () => {
    await withPage({ javaScriptEnabled: false }, async (page) => {
      await page.goto(`${site.server.url}/expeditions`);
      expect(await page.getAttribute('[data-search-link]', 'href')).toBe('/departures?type=expedition');
      await Promise.all([page.waitForURL(/\/departures\?type=expedition$/), page.click('[data-search-link]')]);
      const trips = await page.$$eval('.departure', (els) => els.map((e) => (e as HTMLElement).dataset.trip));
      expect(trips.length).toBeGreaterThan(0);
      expect(new Set(trips)).toEqual(new Set(['sample-expedition']));
    });
    await withPage({}, async (page) => {
      await page.goto(`${site.server.url}/treks?difficulty=Moderate&days=short`);
      expect(await page.getAttribute('[data-search-link]', 'href')).toBe(
        '/departures?type=trek&difficulty=Moderate&minDays=1&maxDays=6',
      );
      await page.locator('[data-trip-filter] input[name="region"]:not([value=""])').first().check();
      expect(await page.getAttribute('[data-search-link]', 'href')).toBe(
        '/departures?type=trek&region=Ladakh&difficulty=Moderate&minDays=1&maxDays=6',
      );
      await Promise.all([page.waitForURL(/\/departures\?/), page.click('[data-search-link]')]);
      expect(await page.locator('.search-filters-words').innerText()).toBe(
        'treks, Moderate, region “ladakh”, 1 to 6 days',
      );
      expect(await page.locator('.departure').count()).toBeGreaterThan(0);
    });
  });

  it('the peak table sorts by its column links without JavaScript', async () => {
    await withPage({ javaScriptEnabled: false }, async (page) => {
      await page.goto(`${site.server.url}/peak-data`);
      await page.click('#peak-table th a:text("Peak")');
      expect(page.url()).toContain('/peak-data/by/name-asc');
      const names = await page.locator('#peak-table tbody th > a:first-child').allInnerTexts();
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
      expect(await page.locator('#peak-table th[aria-sort="ascending"]').count()).toBe(1);
    });
  });

  // No page is wider than a 320 px screen: phone.test.ts checks every page at 320, 360 and 1280 px, light and dark, with JavaScript on and off.

  it('pictures the home page and a trip page at phone and desktop widths, each no wider than the screen', async () => {
    const trip = site.paths.find(isTripPath) ?? '/treks/sample-trek';
    for (const [name, p] of [
      ['home', '/'],
      ['trip', trip],
    ] as const) {
      for (const width of [360, 1280]) {
        await withPage({ viewport: { width, height: 900 } }, async (page) => {
          await page.goto(`${site.server.url}${p}`);
          // No horizontal scrolling of the page itself; wide tables scroll inside their own box.
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth),
            `${p} at ${width}px`,
          ).toBeLessThanOrEqual(width);
          await pictures.take(page, `${name}-${width}`, { fullPage: true });
        });
      }
    }
  }, 60_000);
});
