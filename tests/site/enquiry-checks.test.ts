/**
 * An enquiry no slip can spoil, in Chromium against the built fixture site (embedded storage),
 * at 360 and 1280 px (the checks that read no layout at 360 px only), with JavaScript on and off:
 *   - with JavaScript every field's slip is refused in the browser and no request leaves: the
 *     page sends no POST, and the server's own count agrees (the address still has its 5
 *     enquiries after); without JavaScript the server refuses it, in its own sentence next to the
 *     field, with what was typed kept;
 *   - a group larger than the seats left on the chosen date is stopped with the number of seats,
 *     in the browser (the trip page's chosen date with JavaScript) and by the server (the enquiry
 *     page of one date without);
 *   - the phone its message allows, "(+91) 98765 43210", goes through;
 *   - over the quota, the answer says when to send again, and the page leads back to the form
 *     with what was typed.
 * Screenshots go to test-results/enquiry-checks/ for people to look at.
 *
 * Plain form posts are accepted from the configured site origin only, so pages are opened at
 * http://localhost:<port>, the origin of a server started without SITE_URL. Each context speaks
 * from its own client IP (TRUST_PROXY=vercel), so the per-IP enquiry limit is each test's own.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { pastDatesMessage } from '../../service/bookings/past-dates.ts';
import { picturesIn } from './pictures.ts';
import { enquirySite, fewSeats, sendToConfirmation, stillPages } from './site.ts';

const live = enquirySite('enquiry-checks');
let site: string;
let nextIp = 10;
const pictures = picturesIn('enquiry-checks');

beforeAll(() => {
  site = live.site;
});

/** A page in a context of its own, from an address of its own; `posts` are the enquiries it sent. */
async function withPage(
  options: { width: number; js: boolean },
  run: (page: Page, ip: string, posts: string[]) => Promise<void>,
): Promise<void> {
  const ip = `198.51.100.${(nextIp += 1)}`;
  const context = await live.browser.newContext({
    ...stillPages,
    viewport: { width: options.width, height: 800 },
    javaScriptEnabled: options.js,
    extraHTTPHeaders: { 'x-real-ip': ip },
  });
  const page = await context.newPage();
  const posts: string[] = [];
  page.on(
    'request',
    (request) => request.method() === 'POST' && request.url().endsWith('/api/bookings') && posts.push(request.url()),
  );
  try {
    await run(page, ip, posts);
  } finally {
    await context.close();
  }
}

const valid = { tripSlug: 'sample-trek', name: 'Asha Rao', phone: '+91 98765 43210', groupSize: 2 };

function postJson(body: unknown, ip: string): Promise<Response> {
  return fetch(`${live.server.url}/api/bookings`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'x-real-ip': ip },
    body: JSON.stringify(body),
  });
}

/** The server's own count of this address's enquiries: how many of its 5 are left. */
async function enquiriesLeft(ip: string): Promise<number> {
  for (let sent = 0; sent < 6; sent += 1) {
    const response = await postJson(valid, ip);
    if (response.status === 429) return sent;
    expect(response.status).toBe(201);
  }
  throw new Error('more than 5 enquiries were taken from one address');
}

async function fillValid(page: Page): Promise<void> {
  await page.fill('#enquiry-name', 'Asha Rao');
  await page.fill('#enquiry-phone', '+91 98765 43210');
  await page.fill('#enquiry-email', '');
  await page.fill('#enquiry-groupSize', '2');
  await page.fill('#enquiry-message', '');
  if (await page.isVisible('#enquiry-preferredDeparture')) await page.fill('#enquiry-preferredDeparture', '');
}

/** Slips a person makes, one field each, with the server's refusal (or its start). */
const slips: { label: string; field: string; value: string; says: string }[] = [
  { label: 'no name', field: 'name', value: '', says: 'Tell us your name so the guide knows whom to ask for.' },
  {
    label: 'a name of spaces',
    field: 'name',
    value: '   ',
    says: 'Tell us your name so the guide knows whom to ask for.',
  },
  { label: 'a name too long', field: 'name', value: 'N'.repeat(101), says: 'Your name can be at most 100 characters' },
  { label: 'no phone', field: 'phone', value: '', says: 'Give a phone number so a guide can call you back.' },
  { label: 'a phone in words', field: 'phone', value: 'call me', says: 'Give a phone number of 8 to 15 digits' },
  { label: 'a phone too short', field: 'phone', value: '98765', says: 'Give a phone number of 8 to 15 digits' },
  {
    label: 'an email without a domain',
    field: 'email',
    value: 'asha@example',
    says: 'Give an email address such as asha@example.com',
  },
  { label: 'no group size', field: 'groupSize', value: '', says: 'Say how many people are coming.' },
  { label: 'a group of 0', field: 'groupSize', value: '0', says: 'Group size must be a whole number from 1 to 12' },
  {
    label: 'a group over the cap',
    field: 'groupSize',
    value: '13',
    says: 'Group size must be a whole number from 1 to 12',
  },
  { label: 'half a person', field: 'groupSize', value: '2.5', says: 'Group size must be a whole number from 1 to 12' },
  {
    label: 'dates too long',
    field: 'preferredDeparture',
    value: 'd'.repeat(101),
    says: 'Dates wanted can be at most 100 characters',
  },
  { label: 'dates that have passed', field: 'preferredDeparture', value: '15 March 2020', says: pastDatesMessage },
];

for (const width of [360, 1280]) {
  describe(`${width} px`, () => {
    it("with JavaScript: each slip is refused next to its field in the server's words, and nothing is sent", async () => {
      await withPage({ width, js: true }, async (page, ip, posts) => {
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
        await page.goto(`${site}/treks/sample-trek`);
        await page.waitForSelector('[data-live-departures-for][data-loaded]');
        await page.selectOption('#enquiry-departure', 'other');
        for (const slip of slips) {
          await fillValid(page);
          await page.fill(`#enquiry-${slip.field}`, slip.value);
          await page.click('#enquiry-form button[type=submit]');
          await expect
            .poll(() => page.getAttribute(`#enquiry-${slip.field}`, 'aria-invalid'), { message: slip.label })
            .toBe('true');
          expect(await page.textContent(`#enquiry-${slip.field}-error`), slip.label).toContain(slip.says);
          expect(await page.textContent('#enquiry-status'), slip.label).toContain(slip.says);
          expect(await page.evaluate(() => document.activeElement?.id), slip.label).toBe(`enquiry-${slip.field}`);
          // Only the field at fault is marked.
          expect(await page.locator('#enquiry-form [aria-invalid]').count(), slip.label).toBe(1);
        }
        // The message's limit is said, not enforced by cutting what is pasted.
        await fillValid(page);
        await page.fill('#enquiry-message', 'm'.repeat(2001));
        expect((await page.inputValue('#enquiry-message')).length).toBe(2001);
        await page.click('#enquiry-form button[type=submit]');
        await expect
          .poll(() => page.textContent('#enquiry-message-error'))
          .toBe('Your message can be at most 2000 characters; it has 2001. Please shorten it.');

        // Everything at once: every field named, the first focused.
        await page.reload();
        await page.waitForSelector('[data-live-departures-for][data-loaded]');
        await page.fill('#enquiry-phone', 'call me');
        await page.fill('#enquiry-email', 'asha@');
        await page.click('#enquiry-form button[type=submit]');
        await expect
          .poll(() => page.textContent('#enquiry-status'))
          .toMatch(/^4 fields need another look\. Tell us your name/);
        expect(await page.evaluate(() => document.activeElement?.id)).toBe('enquiry-name');
        // Corrected on the spot, a field's message goes as soon as it is right.
        await page.fill('#enquiry-email', 'asha@example.com');
        expect(await page.getAttribute('#enquiry-email', 'aria-invalid')).toBeNull();
        expect(await page.textContent('#enquiry-email-error')).toBe('');
        await page.locator('#enquiry-form').scrollIntoViewIfNeeded();
        await pictures.take(page, `js-slips-${width}`);

        expect(posts).toEqual([]);
        expect(errors).toEqual([]);
        expect(await enquiriesLeft(ip)).toBe(5);
      });
    });

    it('with JavaScript: a group larger than the seats left on the chosen date is stopped with the number; one that fits is sent', async () => {
      await withPage({ width, js: true }, async (page, _ip, posts) => {
        await page.goto(`${site}/treks/sample-trek`);
        await page.waitForSelector('[data-live-departures-for][data-loaded]');
        await fillValid(page);
        await page.fill('#enquiry-groupSize', '5');
        await page.selectOption('#enquiry-departure', fewSeats.id);
        const refusal = `Seats left on ${fewSeats.dates}: 2. Enter a group of at most 2, choose other dates, or tell us in your message how many you are.`;
        // Said as soon as the date is chosen, and again on sending, which sends nothing.
        await expect.poll(() => page.textContent('#enquiry-groupSize-error')).toBe(refusal);
        expect(await page.textContent('#enquiry-groupSize-hint')).toBe(
          `1 to 12 for this trip. Seats left on ${fewSeats.dates}: 2.`,
        );
        await page.click('#enquiry-form button[type=submit]');
        await expect.poll(() => page.textContent('#enquiry-status')).toBe(refusal);
        await page.locator('#enquiry-groupSize').scrollIntoViewIfNeeded();
        await pictures.take(page, `js-seats-${width}`);
        expect(posts).toEqual([]);

        // Other dates lift the bound; back on the date, a group that fits goes through.
        await page.selectOption('#enquiry-departure', 'other');
        expect(await page.getAttribute('#enquiry-groupSize', 'aria-invalid')).toBeNull();
        await page.selectOption('#enquiry-departure', fewSeats.id);
        await page.fill('#enquiry-groupSize', '2');
        await page.fill('#enquiry-phone', '(+91) 98765 43210');
        await sendToConfirmation(page);
        expect(await page.textContent('main')).toContain(`Your enquiry is about Fixture Trek, ${fewSeats.dates}.`);
        expect(posts).toHaveLength(1);
      });
    });

    it("over the quota without JavaScript: the page says when to send again, keeps what was typed and leads back to the trip's form", async () => {
      await withPage({ width, js: false }, async (page, ip) => {
        for (let i = 0; i < 5; i += 1) expect((await postJson({ ...valid, phone: 'x' }, ip)).status).toBe(400);
        await page.goto(`${site}/treks/sample-trek`);
        await fillValid(page);
        await page.fill('#enquiry-name', 'Dawa Sherpa');
        await page.fill('#enquiry-message', 'Two of us are vegetarian.');
        const [answer] = await Promise.all([
          page.waitForResponse(`${site}/api/bookings`),
          page.click('#enquiry-form button[type=submit]'),
        ]);
        expect(answer.status()).toBe(429);
        const notice = (await page.textContent('.enquiry-problems')) ?? '';
        expect(notice).toMatch(/You can send again in (9|10) minutes \(at \d{1,2}:\d{2} [ap]m IST\)/);
        expect(Date.parse((await page.getAttribute('.enquiry-problems time', 'datetime')) ?? '')).toBeGreaterThan(
          Date.now() + 8 * 60_000,
        );
        expect(await page.inputValue('#enquiry-name')).toBe('Dawa Sherpa');
        expect(await page.inputValue('#enquiry-message')).toBe('Two of us are vegetarian.');
        await pictures.take(page, `nojs-429-${width}`, { fullPage: true });
        await Promise.all([
          page.waitForURL(`${site}/treks/sample-trek#enquiry-form`),
          page.click('.enquiry-problems a'),
        ]);
        expect(await page.isVisible('#enquiry-form')).toBe(true);
      });
    });

    it('over the quota with JavaScript: the status line says when to send again, and everything typed stays', async () => {
      await withPage({ width, js: true }, async (page, ip) => {
        for (let i = 0; i < 5; i += 1) expect((await postJson({ ...valid, phone: 'x' }, ip)).status).toBe(400);
        await page.goto(`${site}/treks/sample-trek`);
        await page.waitForSelector('[data-live-departures-for][data-loaded]');
        await fillValid(page);
        await page.fill('#enquiry-name', 'Dawa Sherpa');
        await page.click('#enquiry-form button[type=submit]');
        await expect.poll(() => page.getAttribute('#enquiry-status', 'data-outcome')).toBe('bad');
        expect(await page.textContent('#enquiry-status')).toMatch(
          /^Too many enquiries from your connection: at most 5 every 10 minutes\. You can send again in (9|10) minutes \(at \d{1,2}:\d{2} [ap]m IST\), or write to hello@example\.test\.$/,
        );
        expect(await page.inputValue('#enquiry-name')).toBe('Dawa Sherpa');
        expect(await page.inputValue('#enquiry-phone')).toBe('+91 98765 43210');
        await page.locator('#enquiry-status').scrollIntoViewIfNeeded();
        await pictures.take(page, `js-429-${width}`);
      });
    });
  });
}

// The browser's own checks and the server's seats check read no layout: at a phone's width only.
describe('360 px', () => {
  const width = 360;

  it('without JavaScript: the server refuses each slip in its own sentence next to the field, and keeps what was typed', async () => {
    // Each from an address of its own: every refusal is a request counted against the address's 5.
    for (const slip of slips) {
      await withPage({ width, js: false }, async (page) => {
        await page.goto(`${site}/treks/sample-trek`);
        await fillValid(page);
        await page.fill(`#enquiry-${slip.field}`, slip.value);
        const [answer] = await Promise.all([
          page.waitForResponse(`${site}/api/bookings`),
          page.click('#enquiry-form button[type=submit]'),
        ]);
        expect(answer.status(), slip.label).toBe(400);
        expect(await page.textContent(`#enquiry-${slip.field}-error`), slip.label).toContain(slip.says);
        expect(await page.getAttribute(`#enquiry-${slip.field}`, 'aria-invalid'), slip.label).toBe('true');
        expect(await page.inputValue('#enquiry-name'), slip.label).toBe(
          slip.field === 'name' ? slip.value : 'Asha Rao',
        );
      });
    }
    // The message stops at its limit in the browser (a textarea takes no pattern).
    await withPage({ width, js: false }, async (page, _ip, posts) => {
      await page.goto(`${site}/treks/sample-trek`);
      await fillValid(page);
      await page.fill('#enquiry-message', 'm'.repeat(2001));
      expect((await page.inputValue('#enquiry-message')).length).toBe(2000);
      expect(posts).toEqual([]);
    });
    // A context and a post for each slip: longer than one page of checks.
  }, 120_000);

  it('without JavaScript: the enquiry page of a date with 2 seats left bounds the group there, and the server refuses more with the number', async () => {
    await withPage({ width, js: false }, async (page, ip, posts) => {
      await page.goto(`${site}/treks/sample-trek/enquire?departure=${fewSeats.id}`);
      expect(await page.getAttribute('#enquiry-groupSize', 'max')).toBe('2');
      expect(await page.textContent('#enquiry-groupSize-hint')).toBe(
        `1 to 12 for this trip. Seats left on ${fewSeats.dates}: 2.`,
      );
      expect(await page.inputValue('#enquiry-preferredDeparture')).toBe(fewSeats.dates);
      await page.fill('#enquiry-name', 'Asha Rao');
      await page.fill('#enquiry-phone', '+91 98765 43210');
      await page.fill('#enquiry-groupSize', '5');
      const [answer] = await Promise.all([
        page.waitForResponse(`${site}/api/bookings`),
        page.click('#enquiry-form button[type=submit]'),
      ]);
      expect(answer.status()).toBe(400);
      expect(await page.textContent('#enquiry-groupSize-error')).toContain(`Seats left on ${fewSeats.dates}: 2.`);
      expect(posts).toHaveLength(1);

      // The server checks the same against storage, whatever the browser let through.
      const response = await postJson({ ...valid, groupSize: 5, preferredDeparture: fewSeats.dates }, ip);
      expect(response.status).toBe(400);
      const { error } = (await response.json()) as { error: { field: string; message: string } };
      expect(error).toMatchObject({
        field: 'groupSize',
        message: expect.stringContaining(`Seats left on ${fewSeats.dates}: 2.`),
      });

      await page.fill('#enquiry-groupSize', '2');
      await sendToConfirmation(page);
      expect(await page.textContent('main')).toContain(`Your enquiry is about Fixture Trek, ${fewSeats.dates}.`);
    });
  });
});
