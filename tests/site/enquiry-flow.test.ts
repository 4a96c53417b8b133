/**
 * The enquiry from a trip page to its confirmation, in Chromium against the built fixture site
 * with embedded storage (so the departures block has departures), at 320, 360 and 1280 px, with
 * and without JavaScript, each state checked by axe and pictured in light and dark: "Enquire for this date" choosing the date in the form,
 * `?departure=<id>` on a trip page, then the enquiry's confirmation page (the one the plain form
 * lands on) with the reference, trip, dates and call-back promise;
 * without JavaScript "Enquire for this date" (on the board, or in a trip page's framed dates)
 * leading to the trip's form with the date filled in and on to a confirmation that repeats it, and
 * the styled answer that keeps what was typed (a group larger than the seats left on the dates
 * typed, which only the server can check there), then /enquiry-sent?ref=….
 * Pictures go to test-results/enquiry/ for people to look at when a run asks for them (pictures.ts).
 *
 * Plain form posts are accepted from the configured site origin only, so pages are opened at
 * http://localhost:<port>, the origin of a server started without SITE_URL. Each context speaks
 * from its own client IP (TRUST_PROXY=vercel), so the per-IP enquiry limit never interferes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeInEachScheme, axeOfMarkup, axeViolations, violationWhere } from './axe.ts';
import { picturesIn } from './pictures.ts';
import { enquirySite, fewSeats, sendToConfirmation, stillPages } from './site.ts';

const live = enquirySite('enquiry-flow');
let site: string;
let nextIp = 10;
const pictures = picturesIn('enquiry');
const promise = 'within one working day, between 9:00 and 19:00 India time';
const reference = /enq-\d{8}-[a-z2-9]{10}/;

beforeAll(() => {
  site = live.site;
});

async function withPage(
  options: Parameters<Browser['newContext']>[0],
  run: (page: Page, context: BrowserContext) => Promise<void>,
): Promise<void> {
  const context = await live.browser.newContext({
    ...stillPages,
    ...options,
    extraHTTPHeaders: { 'x-real-ip': `198.51.100.${(nextIp += 1)}` },
  });
  try {
    await run(await context.newPage(), context);
  } finally {
    await context.close();
  }
}

function outboxWith(text: string): string | undefined {
  const dir = path.join(live.dataDir, 'outbox');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .map((f) => readFileSync(path.join(dir, f), 'utf8'))
    .find((eml) => eml.includes(text));
}

async function axeFindings(page: Page): Promise<string[]> {
  return (await axeViolations(page)).map(violationWhere);
}

async function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

const loaded = (page: Page) => page.waitForSelector('[data-live-departures-for][data-loaded]');

for (const width of [320, 360, 1280]) {
  const view = { viewport: { width, height: 800 } };
  const tag = `${width}`;

  describe(`${width} px, light and dark`, () => {
    it('with JavaScript: "Enquire for this date" chooses it in the form, and sending shows the reference and when to expect a call', async () => {
      await withPage(view, async (page) => {
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
        await page.goto(`${site}/treks/sample-trek`);
        await loaded(page);
        // A date shown that can be joined with room for the 2 sent below: the second such, or the first.
        const joinable = page.locator(
          '[data-departure][data-status="open"]:visible, [data-departure][data-status="filling"]:visible',
        );
        const seats = await joinable.evaluateAll((cards) =>
          cards.map((c) => Number((c as HTMLElement).dataset.seatsLeft ?? 99)),
        );
        const second = seats.findIndex((n, i) => i > 0 && n >= 2);
        const card = joinable.nth(second === -1 ? seats.findIndex((n) => n >= 2) : second);
        const id = await card.getAttribute('data-departure');
        const dates = (await card.locator('.departure-dates').textContent())?.trim() ?? '';
        await card.locator('[data-enquire]').click();

        expect(await page.inputValue('#enquiry-departure')).toBe(id);
        expect(await page.isHidden('#enquiry-preferredDeparture')).toBe(true);
        expect(await page.evaluate(() => document.activeElement?.id)).toBe('enquiry-name');
        expect(new URL(page.url()).searchParams.get('departure')).toBe(id);
        await expect
          .poll(() => page.evaluate(() => document.getElementById('enquiry-name')!.getBoundingClientRect().top))
          .toBeLessThan(800);
        expect(await fitsWidth(page)).toBe(true);
        expect(await axeInEachScheme(page)).toEqual([]);
        await pictures.inEachScheme(page, `js-chosen-${tag}`, { fullPage: false });

        // Too long is said on leaving the field, before anything is sent.
        await page.fill('#enquiry-name', 'N'.repeat(150));
        await page.press('#enquiry-name', 'Tab');
        expect(await page.textContent('#enquiry-name-error')).toBe(
          'Your name can be at most 100 characters; it has 150. Please shorten it.',
        );
        expect(await page.getAttribute('#enquiry-name', 'aria-invalid')).toBe('true');

        const name = `Meera ${tag}`;
        await page.fill('#enquiry-name', name);
        await page.press('#enquiry-name', 'Tab');
        expect(await page.getAttribute('#enquiry-name', 'aria-invalid')).toBeNull();
        await page.fill('#enquiry-phone', '+91 99887 76655');
        await page.fill('#enquiry-email', 'meera@example.com');
        await page.fill('#enquiry-groupSize', '2');
        // Sent, it ends on the enquiry's confirmation page, as the plain form does.
        const ref = await sendToConfirmation(page);
        expect(ref).toMatch(reference);
        const main = (await page.textContent('main')) ?? '';
        expect(main).toContain(promise);
        // The confirmation repeats the trip and the date chosen.
        expect(main).toContain(`Your enquiry is about Fixture Trek, ${dates}.`);
        expect(await page.textContent('.enquiry-receipt .dates')).toBe(dates);
        expect(await axeFindings(page)).toEqual([]);
        await pictures.inEachScheme(page, `js-sent-${tag}`, { fullPage: false });

        // The team's email names the departure chosen on the page.
        const eml = outboxWith(name);
        expect(eml).toContain(`Dates wanted: ${dates}`);
        expect(eml).toContain(ref);
        expect(eml).toContain('Reply-To: meera@example.com');
        expect(errors).toEqual([]);
      });
    });

    it('without JavaScript: "Enquire for this date", on the board or in a trip page\'s dates, keeps the date into the form and onto the confirmation', async () => {
      await withPage({ ...view, javaScriptEnabled: false }, async (page) => {
        await page.goto(`${site}/departures?trip=sample-trek`);
        // Open: more than 3 seats left, room for the 3 sent below.
        const card = page.locator('.departure[data-status="open"]').first();
        const dates = ((await card.locator('.departure-dates').textContent()) ?? '').trim();
        await Promise.all([
          page.waitForURL(/\/treks\/sample-trek\/enquire\?departure=/),
          card.locator('[data-enquire]').click(),
        ]);
        expect(await page.inputValue('#enquiry-preferredDeparture')).toBe(dates);
        expect(await page.textContent('h1')).toBe(`Enquire about Fixture Trek, ${dates}`);
        expect(await fitsWidth(page)).toBe(true);
        expect(await axeOfMarkup(page)).toEqual([]);
        await pictures.inEachScheme(page, `nojs-date-${tag}`);

        const name = `Dawa ${tag}`;
        await page.fill('#enquiry-name', name);
        await page.fill('#enquiry-phone', '+91 94180 12345');
        await page.fill('#enquiry-groupSize', '3');
        await sendToConfirmation(page);
        const main = (await page.textContent('main')) ?? '';
        expect(main).toContain(`Your enquiry is about Fixture Trek, ${dates}.`);
        expect(await page.textContent('.enquiry-receipt .dates')).toBe(dates);
        expect(main).not.toContain(name);
        expect(outboxWith(name)).toContain(`Dates wanted: ${dates}`);
        expect(await axeOfMarkup(page)).toEqual([]);
        await pictures.inEachScheme(page, `nojs-date-sent-${tag}`);

        // The same from the trip page, whose dates come in a frame without JavaScript.
        await page.goto(`${site}/treks/sample-trek`);
        const framed = page.frameLocator('iframe.departures-frame').locator('[data-enquire]').first();
        const id = await framed.getAttribute('data-enquire');
        await Promise.all([page.waitForURL(`${site}/treks/sample-trek/enquire?departure=${id}`), framed.click()]);
        expect(await page.inputValue('#enquiry-preferredDeparture')).toMatch(/^\d{1,2} \w+ \d{4}/);
      });
    });

    it('without JavaScript: a group larger than the seats left on the dates typed comes back styled with everything typed and the error at the field; corrected, it lands on its confirmation', async () => {
      await withPage({ ...view, javaScriptEnabled: false }, async (page) => {
        await page.goto(`${site}/treks/sample-trek`);
        // Without JavaScript the dates are free text.
        expect(await page.isVisible('#enquiry-preferredDeparture')).toBe(true);
        expect(await page.isHidden('#enquiry-departure')).toBe(true);
        const name = `Ravi ${tag}`;
        await page.fill('#enquiry-name', name);
        await page.fill('#enquiry-phone', '098450 12345');
        await page.fill('#enquiry-email', 'ravi@example.com');
        await page.fill('#enquiry-groupSize', '5');
        // The browser checks every field it can; the seats of the dates typed are the server's to check.
        await page.fill('#enquiry-preferredDeparture', fewSeats.dates);
        await page.fill('#enquiry-message', 'Two of us are vegetarian.\nCan we bring a dog? <no>');
        const [answer] = await Promise.all([
          page.waitForResponse(`${site}/api/bookings`),
          page.click('#enquiry-form button[type=submit]'),
        ]);
        expect(answer.status()).toBe(400);

        // The site's frame and styles, the message once, the values kept, the error at its field.
        expect(await page.textContent('h1')).toBe('Your enquiry was not sent');
        expect(await page.locator('.site-header').count()).toBe(1);
        expect(await page.locator('#enquiry-form').evaluate((form) => getComputedStyle(form).borderStyle)).toBe(
          'solid',
        );
        expect(await page.textContent('.enquiry-problems')).toContain(
          'One field needs another look: People in your group.',
        );
        const seatsError = `Seats left on ${fewSeats.dates}: 2.`;
        expect(((await page.textContent('main')) ?? '').split(seatsError).length - 1).toBe(1);
        expect(await page.textContent('#enquiry-groupSize-error')).toContain(seatsError);
        expect(await page.getAttribute('#enquiry-groupSize', 'aria-invalid')).toBe('true');
        expect(await page.inputValue('#enquiry-name')).toBe(name);
        expect(await page.inputValue('#enquiry-phone')).toBe('098450 12345');
        expect(await page.inputValue('#enquiry-email')).toBe('ravi@example.com');
        expect(await page.inputValue('#enquiry-groupSize')).toBe('5');
        expect(await page.inputValue('#enquiry-preferredDeparture')).toBe(fewSeats.dates);
        expect(await page.inputValue('#enquiry-message')).toBe('Two of us are vegetarian.\nCan we bring a dog? <no>');
        expect(await fitsWidth(page)).toBe(true);
        expect(await axeOfMarkup(page)).toEqual([]);
        await pictures.inEachScheme(page, `nojs-error-${tag}`);

        // Other dates, with room for the five of them.
        await page.fill('#enquiry-preferredDeparture', 'Late June 2027');
        const ref = await sendToConfirmation(page);
        expect(ref).toMatch(reference);
        expect(await page.textContent('h1')).toBe('Thank you: your enquiry reached our team');
        const main = (await page.textContent('main')) ?? '';
        expect(main).toContain(ref);
        expect(main).toContain('Fixture Trek');
        expect(main).toContain(promise);
        expect(main).not.toContain(name);
        expect(main).not.toContain('098450');
        // Dates in the person's own words are not repeated on a page anyone with its address can open.
        expect(main).not.toContain('Late June 2027');
        expect(main).toContain('As you wrote them in your enquiry');
        expect(await fitsWidth(page)).toBe(true);
        expect(await axeOfMarkup(page)).toEqual([]);
        await pictures.inEachScheme(page, `nojs-sent-${tag}`);
        const eml = outboxWith(name);
        expect(eml).toContain('Dates wanted: Late June 2027');
        expect(eml).toContain(`Reference:    ${ref}`);
      });
    });
  });
}

describe('a departure named in the address', () => {
  for (const width of [360, 1280]) {
    it(`the board's "Enquire for this date" opens the trip's form with that date, and the trip page's ?departure=<id> chooses it there (${width} px)`, async () => {
      await withPage({ viewport: { width, height: 800 } }, async (page) => {
        await page.goto(`${site}/departures?trip=sample-trek`);
        const link = page.locator('[data-enquire]').first();
        const id = await link.getAttribute('data-enquire');
        const dates = ((await page.locator(`[data-departure="${id}"] .departure-dates`).textContent()) ?? '').trim();
        expect(await link.getAttribute('href')).toBe(`/treks/sample-trek/enquire?departure=${id}`);
        await Promise.all([page.waitForURL(`${site}/treks/sample-trek/enquire?departure=${id}`), link.click()]);
        expect(await page.inputValue('#enquiry-preferredDeparture')).toBe(dates);
        await pictures.take(page, `board-link-${width}`);

        // A trip page's address naming a departure (as "Enquire for this date" there leaves it).
        await page.goto(`${site}/treks/sample-trek?departure=${id}#enquire`);
        await loaded(page);
        await expect.poll(() => page.inputValue('#enquiry-departure')).toBe(id);
        // The browser settles the #enquire fragment once the page has loaded; focus ends in the form.
        await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('enquiry-name');
        await pictures.take(page, `query-${width}`);
      });
    });
  }

  it('a departure that is no longer on sale chooses nothing and says so', async () => {
    await withPage({ viewport: { width: 360, height: 800 } }, async (page) => {
      await page.goto(`${site}/treks/sample-trek?departure=sample-trek-1999-01-01#enquire`);
      await loaded(page);
      await expect.poll(() => page.textContent('#enquiry-departure-hint')).toContain('no longer open for enquiries');
      expect(await page.inputValue('#enquiry-departure')).toBe('');
      // "Other dates or flexible" brings the free-text field back.
      await page.selectOption('#enquiry-departure', 'other');
      expect(await page.isVisible('#enquiry-preferredDeparture')).toBe(true);
      expect(await page.textContent('label[for="enquiry-preferredDeparture"]')).toBe(
        'Other dates you have in mind (optional)',
      );
    });
  });
});

describe('/enquiry-sent without an enquiry', () => {
  it.each([
    ['opened directly', '', 200, 'No enquiry to show'],
    ['an unknown reference', '?ref=enq-20260101-abcdefghij', 404, 'We have no enquiry with that reference'],
  ])('%s: says so plainly, noindex and never cached', async (_label, query, status, heading) => {
    await withPage({ viewport: { width: 360, height: 800 } }, async (page) => {
      const response = await page.goto(`${site}/enquiry-sent${query}`);
      expect(response?.status()).toBe(status);
      expect(response?.headers()['cache-control']).toBe('no-store');
      expect(await page.getAttribute('meta[name="robots"]', 'content')).toBe('noindex');
      expect(await page.textContent('h1')).toBe(heading);
      expect(await page.textContent('main')).not.toMatch(/thank you|reached our team/i);
      expect(await axeFindings(page)).toEqual([]);
    });
  });
});

describe('an enquiry sent again is taken once', () => {
  const view = { viewport: { width: 360, height: 800 } };
  /** Every email in the outbox that holds `text`. */
  const emailsWith = (text: string) =>
    readdirSync(path.join(live.dataDir, 'outbox'))
      .map((f) => readFileSync(path.join(live.dataDir, 'outbox', f), 'utf8'))
      .filter((eml) => eml.includes(text));

  it('with JavaScript: the answer lost on its way back, the person sends again and gets the same reference', async () => {
    await withPage(view, async (page) => {
      await page.goto(`${site}/treks/sample-trek`);
      await loaded(page);
      expect(await page.inputValue('input[name="formToken"]')).toMatch(/^[0-9a-f]{32}$/);
      const name = 'Tashi Sent Twice';
      await page.fill('#enquiry-name', name);
      await page.fill('#enquiry-phone', '+91 94181 22334');
      await page.fill('#enquiry-groupSize', '2');
      // The server takes the first; its answer never reaches the page, as when a connection drops.
      let posts = 0;
      await page.route('**/api/bookings', async (route) => {
        posts += 1;
        if (posts > 1) return route.continue();
        await route.fetch();
        await route.abort('connectionreset');
      });
      await page.click('#enquiry-form button[type=submit]');
      await expect.poll(() => page.getAttribute('#enquiry-status', 'data-outcome')).toBe('bad');
      expect(await page.textContent('#enquiry-status')).toContain('could not be sent');
      const ref = await sendToConfirmation(page);
      expect(ref).toMatch(reference);
      expect(posts).toBe(2);
      const emails = emailsWith(name);
      expect(emails).toHaveLength(1);
      expect(emails[0]).toContain(ref);
    });
  });

  it('without JavaScript: after a timeout, sent again from the form, it is one enquiry with the same reference', async () => {
    await withPage({ ...view, javaScriptEnabled: false }, async (page) => {
      const name = 'Norbu Sent Again';
      const fill = async () => {
        await page.fill('#enquiry-name', name);
        await page.fill('#enquiry-phone', '+91 94183 44556');
        await page.fill('#enquiry-groupSize', '3');
      };
      await page.goto(`${site}/treks/sample-trek`);
      await fill();
      // The first post is taken, and then the network gives up on it.
      let posts = 0;
      await page.route('**/api/bookings', async (route) => {
        posts += 1;
        if (posts > 1) return route.continue();
        await route.fetch({ maxRedirects: 0 });
        await route.abort('timedout');
      });
      await page.click('#enquiry-form button[type=submit]');
      await expect.poll(() => page.url()).toMatch(/^chrome-error:/);
      // The browser says the site could not be reached; the person goes back to the trip page and sends it again.
      await page.goto(`${site}/treks/sample-trek`);
      await fill();
      await sendToConfirmation(page);
      expect(posts).toBe(2);
      const emails = emailsWith(name);
      expect(emails).toHaveLength(1);
      expect(emails[0]).toContain(new URL(page.url()).searchParams.get('ref'));
      expect(await page.textContent('main')).toContain('your enquiry reached our team');
    });
  });
});
