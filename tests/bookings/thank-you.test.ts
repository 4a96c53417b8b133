/**
 * GET /enquiry-sent?ref=<reference> as a function of (Request, deps), on embedded PostgreSQL:
 * what it confirms for an enquiry it finds, and what it says for none, an unknown or a malformed
 * reference, or when storage cannot be read. Never the person's name, phone or email.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnquiryStore, newEnquiryId, type StoredEnquiry } from '../../service/bookings/store.ts';
import { handleThankYouPage, type ThankYouDeps } from '../../service/bookings/thank-you.ts';
import { freshDatabase } from '../helpers/embedded-template.ts';
import { openServer } from '../../service/storage/postgres.ts';
import type { Sql } from '../../service/storage/sql.ts';
import { loadCatalogue } from '../helpers/content.ts';
import { freePort } from '../helpers/project.ts';
import { barePage } from './page-writer.ts';

const catalogue = loadCatalogue(undefined, 'http://127.0.0.1:4321');
const promise = catalogue.site.callbackPromise;
const input = {
  tripSlug: 'sample-trek',
  name: 'Asha Rao',
  phone: '+91 98765 43210',
  email: 'asha@example.com',
  groupSize: 4,
  preferredDeparture: 'October 2026',
  message: 'Hello',
};
const trip = { name: 'Fixture Trek', url: 'http://127.0.0.1:4321/treks/sample-trek' };

let sql: Sql;
let store: EnquiryStore;
let delivered: StoredEnquiry;
let undelivered: StoredEnquiry;
let forDeparture: StoredEnquiry;
/** The dates as a departure shows them (and as the form sends them when one is chosen). */
const departureDates = '5 Jun 2027 to 9 Jun 2027';

beforeAll(async () => {
  sql = await freshDatabase();
  store = new EnquiryStore(sql);
  delivered = await store.add(input, { trip, callbackPromise: promise }, new Date('2026-11-22T04:30:00Z'));
  await store.markDelivered(delivered.id, new Date('2026-11-22T04:30:01Z'), 'outbox:x');
  undelivered = await store.add(input, { trip, callbackPromise: promise }, new Date('2026-11-22T05:00:00Z'));
  await store.markFailed(undelivered.id, 'mail down');
  forDeparture = await store.add(
    { ...input, preferredDeparture: departureDates },
    { trip, callbackPromise: promise },
    new Date('2026-11-22T06:00:00Z'),
  );
  await store.markDelivered(forDeparture.id, new Date('2026-11-22T06:00:01Z'), 'outbox:y');
});
afterAll(async () => {
  await sql.close();
});

const deps = (overrides: Partial<ThankYouDeps> = {}): ThankYouDeps => ({
  catalogue,
  enquiries: async () => store,
  page: barePage,
  ...overrides,
});

async function open(query: string, d = deps()): Promise<{ status: number; headers: Headers; html: string }> {
  const response = await handleThankYouPage(new Request(`http://127.0.0.1:4321/enquiry-sent${query}`), d);
  return { status: response.status, headers: response.headers, html: await response.text() };
}

function expectPrivate(page: { headers: Headers; html: string }): void {
  expect(page.headers.get('Cache-Control')).toBe('no-store');
  expect(page.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
  expect(page.html).toContain('<meta name="robots" content="noindex">');
  for (const personal of ['Asha', '98765', 'asha@example.com', 'October 2026'])
    expect(page.html).not.toContain(personal);
}

describe('/enquiry-sent', () => {
  it('an enquiry it finds: the reference, the trip, when it arrived and when to expect a call', async () => {
    const page = await open(`?ref=${delivered.id}`);
    expect(page.status).toBe(200);
    expectPrivate(page);
    expect(page.html).toContain('<h1>Thank you: your enquiry reached our team</h1>');
    expect(page.html).toContain(`<strong class="reference">${delivered.id}</strong>`);
    expect(page.html).toContain('<a href="/treks/sample-trek">Fixture Trek</a>');
    expect(page.html).toContain('22 Nov 2026, 10:00 am IST');
    expect(page.html).toContain(
      `A guide will call you ${promise}, to confirm seats and dates. Nothing is booked until then.`,
    );
  });

  it("an enquiry for a departure: repeats the trip and the departure's dates", async () => {
    const page = await open(`?ref=${forDeparture.id}`);
    expect(page.status).toBe(200);
    expectPrivate(page);
    expect(page.html).toContain(`Your enquiry is about Fixture Trek, ${departureDates}.`);
    expect(page.html).toContain(`<dt>Dates</dt><dd><strong class="dates">${departureDates}</strong></dd>`);
  });

  it("dates in the person's own words are not repeated, and the page says why", async () => {
    const page = await open(`?ref=${delivered.id}`);
    expect(page.html).toContain('Your enquiry is about Fixture Trek.');
    expect(page.html).toContain('<dt>Dates</dt><dd>As you wrote them in your enquiry');
  });

  it('an enquiry not delivered yet: says it is saved, not that it reached the team', async () => {
    const page = await open(`?ref=${undelivered.id}`);
    expect(page.status).toBe(200);
    expectPrivate(page);
    expect(page.html).toContain('<h1>Your enquiry is saved</h1>');
    expect(page.html).toContain('It has not reached our team yet');
    expect(page.html).not.toContain('reached our team</h1>');
  });

  it('a well-formed reference it does not know: 404, says so plainly and how to enquire', async () => {
    const unknown = newEnquiryId(new Date('2026-11-22T00:00:00Z'));
    const page = await open(`?ref=${unknown}`);
    expect(page.status).toBe(404);
    expectPrivate(page);
    expect(page.html).toContain('<h1>We have no enquiry with that reference</h1>');
    expect(page.html).toContain(`the reference “${unknown}” in its address matches none of ours`);
    expect(page.html).toContain('<a href="/treks">treks</a>');
    expect(page.html).toContain(`mailto:${catalogue.site.contactEmail}`);
  });

  it('a malformed reference: 404 without repeating it, and storage is not asked', async () => {
    let asked = false;
    const page = await open(
      `?ref=${encodeURIComponent('<script>x</script> call 0800 FAKE')}`,
      deps({ enquiries: async () => ((asked = true), store) }),
    );
    expect(page.status).toBe(404);
    expect(page.html).toContain('the reference in its address matches none of ours');
    expect(page.html).not.toContain('FAKE');
    expect(page.html).not.toContain('<script>x');
    expect(asked).toBe(false);
  });

  it('opened directly, without a reference: no claim that anything arrived', async () => {
    const page = await open('', deps({ enquiries: () => Promise.reject(new Error('not needed')) }));
    expect(page.status).toBe(200);
    expectPrivate(page);
    expect(page.html).toContain('<h1>No enquiry to show</h1>');
    expect(page.html).not.toMatch(/thank you|reached our team|will call/i);
  });

  it('storage off or failing: 503, it cannot confirm either way', async () => {
    const off = await open(`?ref=${delivered.id}`, deps({ enquiries: async () => null }));
    expect(off.status).toBe(503);
    expect(off.html).toContain('<h1>We cannot look up your enquiry just now</h1>');
    const broken = await openServer(`postgres://postgres@127.0.0.1:${await freePort()}/none`, { timeoutMs: 1000 });
    const failing = await open(`?ref=${delivered.id}`, deps({ enquiries: async () => new EnquiryStore(broken) }));
    expect(failing.status).toBe(503);
    expectPrivate(failing);
    await broken.close();
  });
});
