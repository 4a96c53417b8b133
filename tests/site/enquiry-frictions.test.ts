/**
 * From a found date to a sent enquiry, in Chromium at 360 x 800, as a trekker on a phone meets
 * it: "Enquire for this date" on the board keeps the party size and the date; dates that have
 * passed are refused in the browser and by the server in one plain sentence; with JavaScript a
 * sent enquiry ends on the confirmation page the plain form lands on; the first live date is on
 * the first screen of the board and of every trip page; without JavaScript a refused field shows
 * the server's own sentence; the sticky price bar never covers the form.
 *
 * Against the built fixture site with embedded storage (enquirySite). Plain form posts are
 * accepted from the configured origin only, so pages are opened at http://localhost:<port>; each
 * context speaks from its own client IP, so the per-IP enquiry limit never interferes.
 */
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { fieldMessages } from '../../service/bookings/enquiry.ts';
import { pastDatesMessage } from '../../service/bookings/past-dates.ts';
import { enquirySite, isTripPath, sendToConfirmation, sitemapPaths, stillPages } from './site.ts';

const live = enquirySite('enquiry-frictions');
let site: string;
let trips: string[];
let nextIp = 10;
const phone = { width: 360, height: 800 };
const reference = /enq-\d{8}-[a-z2-9]{10}/;

beforeAll(async () => {
  site = live.site;
  trips = (await sitemapPaths(live.server.url)).filter(isTripPath);
}, 60_000);

async function withPage(
  options: Parameters<Browser['newContext']>[0],
  run: (page: Page) => Promise<void>,
): Promise<void> {
  const context = await live.browser.newContext({
    ...stillPages,
    viewport: phone,
    ...options,
    extraHTTPHeaders: { 'x-real-ip': `198.51.100.${(nextIp += 1)}` },
  });
  try {
    await run(await context.newPage());
  } finally {
    await context.close();
  }
}

const loaded = (page: Page) => page.waitForSelector('[data-live-departures-for][data-loaded]');

/** Fills the fields every enquiry needs. */
async function fillPerson(page: Page, name: string, groupSize = '2'): Promise<void> {
  await page.fill('#enquiry-name', name);
  await page.fill('#enquiry-phone', '+91 94180 55667');
  await page.fill('#enquiry-groupSize', groupSize);
}

/** Counts the enquiries the page posts. */
async function countPosts(page: Page): Promise<() => number> {
  let posts = 0;
  await page.route('**/api/bookings', (route) => {
    posts += 1;
    return route.continue();
  });
  return () => posts;
}

describe('"Enquire for this date" from a board search', () => {
  for (const javaScriptEnabled of [true, false]) {
    it(`keeps the party size and the departure, so nothing is typed twice (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
      await withPage({ javaScriptEnabled }, async (page) => {
        await page.goto(`${site}/departures?trip=sample-trek`);
        await page.click('details.search-filters > summary');
        await page.fill('#search-minSeats', '3');
        await Promise.all([
          page.waitForURL(/minSeats=3/),
          page.click('form[data-departure-search] button[type=submit]'),
        ]);
        const card = page.locator('.departure:has([data-enquire])').first();
        await card.waitFor();
        const id = await card.getAttribute('data-departure');
        const dates = ((await card.locator('.departure-dates').textContent()) ?? '').trim();
        await Promise.all([page.waitForURL(/\/treks\/sample-trek\/enquire\?/), card.locator('[data-enquire]').click()]);
        const asked = new URL(page.url()).searchParams;
        expect(asked.get('departure')).toBe(id);
        expect(asked.get('groupSize')).toBe('3');
        expect(await page.inputValue('#enquiry-groupSize')).toBe('3');
        expect(await page.inputValue('#enquiry-preferredDeparture')).toBe(dates);
        expect(await page.textContent('h1')).toBe(`Enquire about Fixture Trek, ${dates}`);

        // Sent as it stands, with only the person's name and number added.
        const name = `Karma ${javaScriptEnabled ? 'with' : 'without'} script`;
        await page.fill('#enquiry-name', name);
        await page.fill('#enquiry-phone', '+91 94180 22113');
        await sendToConfirmation(page);
        expect(await page.textContent('.enquiry-receipt .dates')).toBe(dates);
      });
    });
  }

  it('a party size the trip cannot take, or not a number, is left out of the form rather than repeated', async () => {
    await withPage({ javaScriptEnabled: false }, async (page) => {
      for (const size of ['40', 'abc', '0']) {
        const response = await page.goto(`${site}/treks/sample-trek/enquire?groupSize=${size}`);
        expect(response?.status(), size).toBe(200);
        expect(await page.inputValue('#enquiry-groupSize'), size).toBe('');
      }
    });
  });
});

describe('dates that have passed', () => {
  it('with JavaScript: refused next to the field in a plain sentence, before anything is sent', async () => {
    await withPage({}, async (page) => {
      await page.goto(`${site}/treks/sample-trek`);
      await loaded(page);
      const posts = await countPosts(page);
      await fillPerson(page, 'Pema Past');
      await page.selectOption('#enquiry-departure', 'other');
      for (const passed of ['15 March 2020', 'March 2020', '2020-03-15', 'March 15, 2020']) {
        // Each on its own: words that name no date clear the last refusal first.
        await page.fill('#enquiry-preferredDeparture', 'flexible');
        expect(await page.textContent('#enquiry-preferredDeparture-error')).toBe('');
        await page.fill('#enquiry-preferredDeparture', passed);
        await page.click('#enquiry-form button[type=submit]');
        await expect.poll(() => page.textContent('#enquiry-preferredDeparture-error')).toBe(pastDatesMessage);
        expect(await page.getAttribute('#enquiry-preferredDeparture', 'aria-invalid'), passed).toBe('true');
      }
      expect(posts()).toBe(0);
      // Dates to come, or in words, are sent.
      await page.fill('#enquiry-preferredDeparture', 'October 2031');
      await sendToConfirmation(page);
      expect(posts()).toBe(1);
    });
  });

  it('without JavaScript: the server refuses them with the same sentence, at the field, and keeps what was typed', async () => {
    await withPage({ javaScriptEnabled: false }, async (page) => {
      await page.goto(`${site}/treks/sample-trek`);
      await fillPerson(page, 'Pema Plain');
      await page.fill('#enquiry-preferredDeparture', '15 March 2020');
      const [answer] = await Promise.all([
        page.waitForResponse(`${site}/api/bookings`),
        page.click('#enquiry-form button[type=submit]'),
      ]);
      expect(answer.status()).toBe(400);
      expect(await page.textContent('#enquiry-preferredDeparture-error')).toBe(pastDatesMessage);
      expect(await page.inputValue('#enquiry-preferredDeparture')).toBe('15 March 2020');
      expect(await page.inputValue('#enquiry-name')).toBe('Pema Plain');
    });
    // The same from any client.
    const response = await fetch(`${live.server.url}/api/bookings`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'x-real-ip': '198.51.100.250' },
      body: JSON.stringify({
        tripSlug: 'sample-trek',
        name: 'Pema Api',
        phone: '+91 94180 55667',
        groupSize: 2,
        preferredDeparture: '23–27 Sept 2020',
      }),
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.fields).toEqual([{ field: 'preferredDeparture', message: pastDatesMessage }]);
  });
});

describe('with JavaScript, a sent enquiry', () => {
  it('ends on the same confirmation page as without: the reference, the trip, the date and whom to write to', async () => {
    const confirmations: string[] = [];
    for (const javaScriptEnabled of [true, false]) {
      await withPage({ javaScriptEnabled }, async (page) => {
        await page.goto(`${site}/treks/sample-trek`);
        if (javaScriptEnabled) await loaded(page);
        await fillPerson(page, `Lhamo ${javaScriptEnabled ? 'scripted' : 'plain'}`);
        if (javaScriptEnabled) await page.selectOption('#enquiry-departure', 'other');
        await page.fill('#enquiry-preferredDeparture', 'Late June 2031');
        const ref = await sendToConfirmation(page);
        expect(ref).toMatch(reference);
        expect(await page.textContent('h1')).toBe('Thank you: your enquiry reached our team');
        expect(await page.textContent('.enquiry-receipt .reference')).toBe(ref);
        expect(await page.textContent('main')).toContain('no call by then? Write to');
        confirmations.push(((await page.textContent('main')) ?? '').replace(ref, '<ref>').replace(/Received.*/s, ''));
      });
    }
    expect(confirmations[0]).toBe(confirmations[1]);
  });
});

describe('on the first screen of a 360 x 800 phone', () => {
  /** The first date's bottom, and where the price bar begins (the screen's foot when there is none). */
  const firstDate = (page: Page) =>
    page.evaluate(() => {
      const bar = document.querySelector('.enquire-bar');
      const shown = bar && getComputedStyle(bar).display !== 'none';
      return {
        bottom: document.querySelector('.departure .departure-dates')!.getBoundingClientRect().bottom,
        foot: shown ? bar.getBoundingClientRect().top : window.innerHeight,
      };
    });

  it('the first live date of the board and of every trip page, clear of the price bar (JavaScript on)', async () => {
    const late: string[] = [];
    await withPage({}, async (page) => {
      for (const path of ['/departures', ...trips]) {
        await page.goto(`${site}${path}`);
        if (isTripPath(path)) await loaded(page);
        await page.locator('.departure .departure-dates').first().waitFor();
        const { bottom, foot } = await firstDate(page);
        if (bottom > foot) late.push(`${path}: the first date ends at ${Math.round(bottom)} px, the screen at ${foot}`);
      }
    });
    expect(trips.length).toBeGreaterThan(1);
    expect(late).toEqual([]);
  });

  it('the dates coming in above the quick facts move nothing on the screen (no layout shift), at 360 x 800 and 412 x 823', async () => {
    const moved: string[] = [];
    for (const viewport of [phone, { width: 412, height: 823 }]) {
      await withPage({ viewport }, async (page) => {
        await page.addInitScript(() => {
          const seen = window as unknown as { shifted: number };
          seen.shifted = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) seen.shifted += (entry as unknown as { value: number }).value;
          }).observe({ type: 'layout-shift', buffered: true });
        });
        for (const path of trips) {
          await page.goto(`${site}${path}`);
          await loaded(page);
          await page.waitForTimeout(200);
          const shifted = await page.evaluate(() => (window as unknown as { shifted: number }).shifted);
          if (shifted > 0.01) moved.push(`${path} at ${viewport.width} px: layout shift ${shifted.toFixed(3)}`);
        }
      });
    }
    expect(moved).toEqual([]);
  });

  it('the first date of the board and of a trip page without JavaScript (in its frame there)', async () => {
    await withPage({ javaScriptEnabled: false }, async (page) => {
      await page.goto(`${site}/departures`);
      expect((await firstDate(page)).bottom).toBeLessThanOrEqual(phone.height);
      await page.goto(`${site}/treks/sample-trek`);
      const frame = page.locator('iframe.departures-frame');
      const dates = page.frameLocator('iframe.departures-frame').locator('.departure .departure-dates').first();
      await dates.waitFor();
      const inFrame = await dates.evaluate((el) => el.getBoundingClientRect().bottom);
      const frameTop = await frame.evaluate((el) => el.getBoundingClientRect().top);
      const { foot } = await firstDate(page).catch(() => ({ foot: phone.height }));
      expect(frameTop + inFrame).toBeLessThanOrEqual(foot);
    });
  });
});

describe('without JavaScript, a refused field', () => {
  it("shows the server's own sentence next to it, every refused field at once, rather than the browser's bubble", async () => {
    await withPage({ javaScriptEnabled: false }, async (page) => {
      await page.goto(`${site}/treks/sample-trek`);
      await page.fill('#enquiry-name', 'Sonam Slip');
      await page.fill('#enquiry-phone', 'call me');
      await page.fill('#enquiry-email', 'sonam@');
      await page.fill('#enquiry-groupSize', '2');
      const [answer] = await Promise.all([
        page.waitForResponse(`${site}/api/bookings`, { timeout: 10_000 }),
        page.click('#enquiry-form button[type=submit]'),
      ]);
      expect(answer.status()).toBe(400);
      expect(await page.textContent('#enquiry-phone-error')).toBe(fieldMessages.phone.invalid);
      expect(await page.textContent('#enquiry-email-error')).toBe(fieldMessages.email.invalid);
      expect(await page.textContent('.enquiry-problems')).toContain('Phone number');
      expect(await page.inputValue('#enquiry-phone')).toBe('call me');
      // Corrected on the page that refused it, it is sent.
      await page.fill('#enquiry-phone', '+91 94180 33445');
      await page.fill('#enquiry-email', 'sonam@example.com');
      await sendToConfirmation(page);
    });
  });
});

describe('the sticky price bar at 360 px', () => {
  /** Where the bar and the form overlap on screen, in px (0 when they do not, or the bar is not shown). */
  const overlap = (page: Page) =>
    page.evaluate(() => {
      const bar = document.querySelector('.enquire-bar')!;
      if (getComputedStyle(bar).display === 'none') return 0;
      const b = bar.getBoundingClientRect();
      const f = document.querySelector('#enquiry-form')!.getBoundingClientRect();
      const top = Math.max(b.top, f.top, 0);
      const bottom = Math.min(b.bottom, f.bottom, window.innerHeight);
      return Math.max(0, bottom - top);
    });

  for (const javaScriptEnabled of [true, false]) {
    it(`never covers the form, reading down the page or after "Enquire for this date" (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
      await withPage({ javaScriptEnabled }, async (page) => {
        const covered: string[] = [];
        await page.goto(`${site}/treks/sample-trek`);
        if (javaScriptEnabled) await loaded(page);
        expect(await page.locator('.enquire-bar').isVisible()).toBe(true);
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        for (let y = 0; y < height; y += 150) {
          await page.evaluate((to) => window.scrollTo(0, to), y);
          const px = await overlap(page);
          if (px > 0.5) covered.push(`scrolled to ${y}: the bar covers ${Math.round(px)} px of the form`);
        }
        if (javaScriptEnabled) {
          await page.evaluate(() => window.scrollTo(0, 0));
          await page.locator('[data-live-departures-for] a[data-enquire]').first().click();
          await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('enquiry-name');
          const px = await overlap(page);
          if (px > 0.5) covered.push(`after "Enquire for this date": the bar covers ${Math.round(px)} px of the form`);
        }
        expect(covered).toEqual([]);
      });
    });
  }
});
