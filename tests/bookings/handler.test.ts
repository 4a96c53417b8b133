/**
 * POST /api/bookings as a function of (Request, deps): real embedded PostgreSQL (PGlite), the
 * real outbox in a temp folder, the real rate limiter on an injected clock.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { handleBookingEnquiry, type BookingDeps } from '../../service/bookings/index.ts';
import { mailerFromSettings } from '../../service/bookings/mailer.ts';
import { EnquiryStore } from '../../service/bookings/store.ts';
import { readSettings } from '../../service/config.ts';
import { freshDatabase } from '../helpers/embedded-template.ts';
import { openServer } from '../../service/storage/postgres.ts';
import type { AdminDeparture } from '../../service/departures/source.ts';
import { DepartureStore } from '../../service/departures/store.ts';
import { knownTrips } from '../../service/departures/trips.ts';
import { formatDateRange } from '../../domain/format.ts';
import type { Sql } from '../../service/storage/sql.ts';
import { bookingRateLimit } from '../../service/rules/policy.ts';
import { createRateLimiter, MemoryCounterStore } from '../../service/rules/rate-limiter.ts';
import { loadCatalogue } from '../helpers/content.ts';
import { freePort } from '../helpers/project.ts';
import { handlerDeps } from './page-writer.ts';

const catalogue = loadCatalogue(undefined, 'http://127.0.0.1:4321');
const contact = catalogue.site.contactEmail;
const promise = catalogue.site.callbackPromise;
const valid = {
  tripSlug: 'sample-trek',
  name: 'Asha Rao',
  phone: '+91 98765 43210',
  groupSize: 4,
  preferredDeparture: 'October 2027',
  message: 'We are two families.',
};

let sql: Sql;
let enquiries: EnquiryStore;
let departures: DepartureStore;
let dataDir: string;

/** A departure of the fixture trek (2 days), years ahead so it stays upcoming. */
function departure(
  id: string,
  startDate: string,
  status: AdminDeparture['status'],
  seatsLeft: number | null,
): AdminDeparture {
  const endDate = new Date(Date.parse(`${startDate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return {
    id,
    tripSlug: 'sample-trek',
    startDate,
    endDate,
    status,
    priceInr: null,
    seatsTotal: seatsLeft == null ? null : 12,
    seatsLeft,
    note: null,
    published: true,
  };
}

beforeAll(async () => {
  sql = await freshDatabase();
  enquiries = new EnquiryStore(sql);
  await enquiries.ready();
  // The departures live in the same database as the enquiries; the seats check reads them there.
  departures = new DepartureStore(async () => sql, { trips: knownTrips(catalogue) });
  await departures.upsert(
    departure('sample-trek-2030-09-23', '2030-09-23', 'filling', 2),
    departure('sample-trek-2030-10-05', '2030-10-05', 'open', 9),
    departure('sample-trek-2030-10-19', '2030-10-19', 'sold_out', 0),
    departure('sample-trek-2030-11-02', '2030-11-02', 'open', null),
  );
});
afterAll(async () => {
  await sql.close();
});
beforeEach(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'enquiries-'));
  await sql.query('DELETE FROM enquiries');
  return () => rmSync(dataDir, { recursive: true, force: true });
});

function deps(overrides: Partial<BookingDeps> = {}): BookingDeps {
  return handlerDeps(
    { catalogue, enquiries, departures, dataDir, clock: () => new Date('2026-11-22T04:30:00Z') },
    overrides,
  );
}

function post(body: unknown, init: { type?: string; headers?: Record<string, string> } = {}): Request {
  const type = init.type ?? 'application/json';
  const text =
    typeof body === 'string'
      ? body
      : type.includes('json')
        ? JSON.stringify(body)
        : new URLSearchParams(body as Record<string, string>).toString();
  return new Request('http://127.0.0.1:4321/api/bookings', {
    method: 'POST',
    body: text,
    headers: { 'Content-Type': type, ...init.headers },
  });
}

const ask = (request: Request, d = deps(), clientIp = '203.0.113.7') => handleBookingEnquiry(request, d, { clientIp });
const outbox = () => {
  try {
    return readdirSync(path.join(dataDir, 'outbox'));
  } catch {
    return [];
  }
};

describe('a valid enquiry', () => {
  it('is stored, written to the outbox, and answered 201 with what happens next', async () => {
    const response = await ask(post(valid));
    expect(response.status).toBe(201);
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    const body = (await response.json()) as {
      enquiry: { id: string; status: string; tripSlug: string };
      callbackPromise: string;
      next: string;
    };
    expect(body.enquiry).toEqual({
      id: expect.stringMatching(/^enq-20261122-[a-z2-9]{10}$/),
      status: 'received',
      tripSlug: 'sample-trek',
    });
    expect(body.callbackPromise).toBe(promise);
    expect(body.next).toBe(
      `Thank you, Asha Rao. Your enquiry about Fixture Trek for October 2027 reached our team; its reference is ${body.enquiry.id}. A guide will call you on +91 98765 43210 ${promise}, to confirm seats and dates. Nothing is booked until then.`,
    );

    const stored = await enquiries.get(body.enquiry.id);
    expect(stored).toMatchObject({
      name: 'Asha Rao',
      email: null,
      callbackPromise: promise,
      groupSize: 4,
      trip: { name: 'Fixture Trek', url: 'http://127.0.0.1:4321/treks/sample-trek' },
      deliveryState: 'delivered',
      attempts: 1,
      lastError: null,
      idempotencyKey: `enquiry/${body.enquiry.id}`,
    });
    expect(stored?.deliveryRef).toMatch(/^outbox:.*\.eml$/);

    expect(outbox()).toEqual([`${body.enquiry.id}.eml`]);
    const eml = readFileSync(path.join(dataDir, 'outbox', `${body.enquiry.id}.eml`), 'utf8');
    expect(eml).toContain(`To: ${contact}`);
    expect(eml).toContain('Subject: Enquiry: Fixture Trek, 4 people, Asha Rao');
    expect(eml).toContain('Dates wanted: October 2027');
    expect(eml).toContain('We are two families.');
    expect(eml).toContain(`Idempotency-Key: enquiry/${body.enquiry.id}`);
    expect(eml).toContain(`The site told them a guide will call ${promise}.`);
    expect(eml).toContain('Email:        Not given');
    expect(eml).not.toContain('Reply-To:');
  });

  it('keeps an optional email address: stored, in the email, and the Reply-To of the outbox message', async () => {
    const response = await ask(post({ ...valid, email: '  asha.rao@example.com ' }));
    expect(response.status).toBe(201);
    const { enquiry } = (await response.json()) as { enquiry: { id: string } };
    expect(await enquiries.get(enquiry.id)).toMatchObject({ email: 'asha.rao@example.com' });
    const eml = readFileSync(path.join(dataDir, 'outbox', `${enquiry.id}.eml`), 'utf8');
    expect(eml).toContain('Reply-To: asha.rao@example.com\r\n');
    expect(eml).toContain('Email:        asha.rao@example.com');
    expect(eml).toContain('<th align="left" valign="top">Email</th><td>asha.rao@example.com</td>');
  });

  it('delivered twice to the outbox still leaves one file, unchanged', async () => {
    const response = await ask(post(valid));
    const { enquiry } = (await response.json()) as { enquiry: { id: string } };
    const file = path.join(dataDir, 'outbox', `${enquiry.id}.eml`);
    const first = readFileSync(file, 'utf8');
    await sql.query(`UPDATE enquiries SET delivery_state = 'failed' WHERE id = $1`, [enquiry.id]);
    const { deliverEnquiry } = await import('../../service/bookings/deliver.ts');
    const again = await deliverEnquiry(enquiry.id, { enquiries, mailer: deps().mailer, clock: () => new Date() });
    expect(again.state).toBe('delivered');
    expect(outbox()).toHaveLength(1);
    expect(readFileSync(file, 'utf8')).toBe(first);
  });
});

describe('refusals', () => {
  it.each([
    ['malformed JSON', post('{"tripSlug": ', {}), /not valid JSON/],
    ['the wrong content type', post(JSON.stringify(valid), { type: 'text/plain' }), /Content-Type: application\/json/],
    ['an oversize body', post({ ...valid, message: 'x'.repeat(20_000) }), /too large/],
  ])('%s: 400 in plain language, nothing stored', async (_label, request, message) => {
    const response = await ask(request);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string; field?: string } };
    expect(body.error.code).toBe('invalid_enquiry');
    expect(body.error.message).toMatch(message);
    expect(await enquiries.list()).toEqual([]);
  });

  it('names the faulty fields, first one first', async () => {
    const response = await ask(post({ ...valid, phone: 'call me', groupSize: 40 }));
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as {
      error: { code: string; message: string; field: string; fields: { field: string; message: string }[] };
    };
    expect(error.field).toBe('phone');
    expect(error.fields.map((f) => f.field)).toEqual(['phone', 'groupSize']);
    expect(error.message).toMatch(/^2 fields need another look\. Give a phone number/);
    expect(await enquiries.list()).toEqual([]);
  });

  it.each([
    ['name', 'x'.repeat(500), 'Your name can be at most 100 characters; it has 500. Please shorten it.'],
    [
      'phone',
      '+91 98765 43210 / 98765 43211 / 98765 43212',
      'The phone number can be at most 30 characters; it has 43. Please shorten it.',
    ],
    [
      'email',
      `${'a'.repeat(250)}@example.com`,
      'The email address can be at most 254 characters; it has 262. Please shorten it.',
    ],
    [
      'preferredDeparture',
      'd'.repeat(101),
      'Dates wanted can be at most 100 characters; it has 101. Please shorten it.',
    ],
    ['message', 'm'.repeat(2500), 'Your message can be at most 2000 characters; it has 2500. Please shorten it.'],
  ])('an over-long %s is refused with its limit, never cut and stored', async (field, value, message) => {
    const response = await ask(post({ ...valid, [field]: value }));
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { field: string; message: string } };
    expect(error.field).toBe(field);
    expect(error.message).toBe(message);
    expect(await enquiries.list()).toEqual([]);
  });

  it('refuses an email address that is not one, and anything but text', async () => {
    for (const email of ['asha@', 'asha rao@example.com', 'not an address', 42]) {
      const response = await ask(post({ ...valid, email }));
      expect(response.status, String(email)).toBe(400);
      const { error } = (await response.json()) as { error: { field: string; message: string } };
      expect(error.field).toBe('email');
    }
    expect((await ask(post({ ...valid, email: '' }))).status).toBe(201);
  });

  it('turns away a filled honeypot without storing or sending', async () => {
    const response = await ask(post({ ...valid, website: 'https://spam.example' }));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { field: string } }).error.field).toBe('website');
    expect(await enquiries.list()).toEqual([]);
    expect(outbox()).toEqual([]);
  });

  it.each(['GET', 'PUT', 'DELETE', 'OPTIONS'])('%s: 405 with Allow: POST, as plain JSON', async (method) => {
    const response = await ask(new Request('http://127.0.0.1:4321/api/bookings', { method }));
    expect(response.status).toBe(405);
    expect(response.headers.get('Allow')).toBe('POST');
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      error: { code: 'method_not_allowed', message: 'Send a booking enquiry with POST.' },
    });
  });
});

describe('when an enquiry cannot be kept or sent', () => {
  it('storage switched off: 503 pointing at the contact email; nothing sent', async () => {
    const response = await ask(post(valid), deps({ enquiries: null }));
    expect(response.status).toBe(503);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('enquiries_unavailable');
    expect(error.message).toContain(contact);
    expect(outbox()).toEqual([]);
  });

  it('storage failing: 502 pointing at the contact email; nothing sent', async () => {
    // A PostgreSQL address where nothing listens: every statement fails at once.
    const broken = await openServer(`postgres://postgres@127.0.0.1:${await freePort()}/none`, { timeoutMs: 1000 });
    const response = await ask(post(valid), deps({ enquiries: new EnquiryStore(broken) }));
    expect(response.status).toBe(502);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('storage_error');
    expect(error.message).toContain(contact);
    expect(outbox()).toEqual([]);
    await broken.close();
  });

  it('outbox not writable: 503, the enquiry stays stored as failed', async () => {
    writeFileSync(path.join(dataDir, 'outbox'), 'a file where the folder should be');
    const response = await ask(post(valid));
    expect(response.status).toBe(503);
    const body = (await response.json()) as {
      error: { code: string };
      enquiry: { id: string; status: string };
      next: string;
    };
    expect(body.error.code).toBe('delivery_unavailable');
    expect(body.enquiry.status).toBe('saved');
    expect(body.next).toMatch(/do not need to send it again/);
    expect(await enquiries.get(body.enquiry.id)).toMatchObject({
      deliveryState: 'failed',
      attempts: 1,
      lastError: expect.stringContaining('outbox'),
    });
  });

  it('Resend key without recipient or sender: 503, stored as failed', async () => {
    const mailer = mailerFromSettings(readSettings({ DATA_DIR: dataDir, RESEND_API_KEY: 're_x' }), {
      contactEmail: contact,
    });
    const response = await ask(post(valid), deps({ mailer }));
    expect(response.status).toBe(503);
    const body = (await response.json()) as { error: { code: string }; enquiry: { id: string } };
    expect(body.error.code).toBe('delivery_unavailable');
    expect(await enquiries.get(body.enquiry.id)).toMatchObject({
      deliveryState: 'failed',
      lastError: 'not configured: RESEND_API_KEY is set but BOOKING_EMAIL_TO and BOOKING_EMAIL_FROM are not',
    });
  });
  it('no Resend key on a serverless host: 503, stored, nothing written to a disk that will vanish', async () => {
    const mailer = mailerFromSettings(readSettings({ DATA_DIR: dataDir }), { contactEmail: contact, serverless: true });
    const response = await ask(post(valid), deps({ mailer }));
    expect(response.status).toBe(503);
    const body = (await response.json()) as { enquiry: { id: string } };
    expect(await enquiries.get(body.enquiry.id)).toMatchObject({
      deliveryState: 'failed',
      lastError: expect.stringContaining('serverless'),
    });
    expect(outbox()).toEqual([]);
  });
});

describe('a group larger than the seats left on the date asked for', () => {
  const dates = formatDateRange('2030-09-23', '2030-09-24');
  const refusal = `Seats left on ${dates}: 2. Enter a group of at most 2, choose other dates, or tell us in your message how many you are.`;

  it.each([
    ['its dates, as the site writes them', dates],
    ['its dates, in other letter case and spacing', `  ${dates.toUpperCase()} `],
    ['its id', 'sample-trek-2030-09-23'],
  ])(
    'is refused with the number of seats when the date is named by %s, and nothing is kept',
    async (_label, preferredDeparture) => {
      const response = await ask(post({ ...valid, groupSize: 5, preferredDeparture }));
      expect(response.status).toBe(400);
      const { error } = (await response.json()) as { error: { code: string; field: string; message: string } };
      expect(error).toMatchObject({ code: 'invalid_enquiry', field: 'groupSize', message: refusal });
      expect(await enquiries.list()).toEqual([]);
    },
  );

  it("is named with the other problems, in the form's order", async () => {
    const response = await ask(post({ ...valid, name: '', groupSize: 3, preferredDeparture: dates, message: 7 }));
    const { error } = (await response.json()) as { error: { fields: { field: string; message: string }[] } };
    expect(error.fields.map((f) => f.field)).toEqual(['name', 'groupSize', 'message']);
    expect(error.fields[1]!.message).toBe(refusal);
  });

  it('takes a group that fits, and dates that name no departure with a count: another date, a sold-out one (a waiting list), one without a published count', async () => {
    expect((await ask(post({ ...valid, groupSize: 2, preferredDeparture: dates }))).status).toBe(201);
    for (const preferredDeparture of [
      'sample-trek-2030-10-05',
      'sample-trek-2030-10-19',
      formatDateRange('2030-11-02', '2030-11-03'),
      'Late September 2030',
    ]) {
      const response = await ask(post({ ...valid, groupSize: 9, preferredDeparture }));
      expect(response.status, preferredDeparture).toBe(201);
    }
  });

  it('reads the seats from storage when the enquiry arrives', async () => {
    await departures.update('sample-trek-2030-09-23', { seatsLeft: 6 });
    try {
      expect((await ask(post({ ...valid, groupSize: 5, preferredDeparture: dates }))).status).toBe(201);
      await departures.update('sample-trek-2030-09-23', { seatsLeft: 4 });
      const response = await ask(post({ ...valid, groupSize: 5, preferredDeparture: dates }));
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
        `Seats left on ${dates}: 4.`,
      );
    } finally {
      await departures.update('sample-trek-2030-09-23', { seatsLeft: 2 });
    }
  });

  it('the plain form: refused at the field with the number, everything typed kept', async () => {
    const form = {
      tripSlug: 'sample-trek',
      name: 'Asha Rao',
      phone: '98765 43210',
      groupSize: '5',
      preferredDeparture: dates,
      message: '',
      website: '',
    };
    const response = await ask(post(form, { type: 'application/x-www-form-urlencoded' }));
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain(`<p class="field-error" id="enquiry-groupSize-error">${refusal}</p>`);
    expect(html).toContain(`value="${dates}"`);
  });

  it('without departures to read (storage off), the enquiry is taken: a guide confirms seats', async () => {
    expect(
      (await ask(post({ ...valid, groupSize: 5, preferredDeparture: dates }), deps({ departures: null }))).status,
    ).toBe(201);
  });
});

describe('the per-IP enquiry limit', () => {
  it('allows 5 per 10 minutes per IP, then 429 with Retry-After and no RateLimit headers', async () => {
    let now = Date.parse('2026-11-22T04:30:00Z');
    const limiter = createRateLimiter(bookingRateLimit, new MemoryCounterStore(), () => now);
    const d = deps({ limiter });
    for (let i = 0; i < 5; i += 1) {
      // Refused enquiries count too: the limit is on attempts.
      const response = await ask(post(i % 2 ? valid : { ...valid, phone: 'x' }), d);
      expect(response.status).toBe(i % 2 ? 201 : 400);
    }
    const limited = await ask(post(valid), d);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('Retry-After')).toBe('600');
    const names = [...limited.headers.keys()];
    expect(names.filter((n) => n.toLowerCase().includes('ratelimit'))).toEqual([]);
    const { error } = (await limited.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('rate_limited');
    // When to send again: the wait, and the clock time in India (10:00 IST now).
    expect(error.message).toBe(
      `Too many enquiries from your connection: at most 5 every 10 minutes. You can send again in 10 minutes (at 10:10 am IST), or write to ${contact}.`,
    );
    expect(await enquiries.list()).toHaveLength(2);

    expect((await ask(post(valid), d, '198.51.100.1')).status).toBe(201); // another visitor

    now += 599_500;
    const stillLimited = await ask(post(valid), d);
    expect(stillLimited.status).toBe(429);
    expect(stillLimited.headers.get('Retry-After')).toBe('1');

    now += 500;
    expect((await ask(post(valid), d)).status).toBe(201);
  });

  it('counts a plain form post the same way and answers it in HTML', async () => {
    const now = Date.parse('2026-11-22T04:30:00Z');
    const limiter = createRateLimiter(bookingRateLimit, new MemoryCounterStore(), () => now);
    const form = { ...valid, groupSize: '2', website: '' };
    // Five different enquiries (the same one sent again is answered again, uncounted: idempotency.test.ts).
    for (let i = 0; i < 5; i += 1)
      expect(
        (
          await ask(
            post({ ...form, message: `#${i}` }, { type: 'application/x-www-form-urlencoded' }),
            deps({ limiter }),
          )
        ).status,
      ).toBe(303);
    const typed = { ...form, name: 'Asha "Rao"', message: 'Two of us & a dog' };
    const limited = await ask(post(typed, { type: 'application/x-www-form-urlencoded' }), deps({ limiter }));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    expect(limited.headers.get('Retry-After')).toBe('600');
    const html = await limited.text();
    // When to send again, in words and as a machine-readable time.
    expect(html).toContain(
      'You can send again in 10 minutes (at <time datetime="2026-11-22T04:40:00.000Z">10:10 am IST</time>)',
    );
    // What was typed is in the form again, and the way back leads to the trip's own form.
    expect(html).toContain('value="Asha &quot;Rao&quot;"');
    expect(html).toMatch(/<textarea [^>]*>\nTwo of us &amp; a dog<\/textarea>/);
    expect(html).toContain(
      'Everything you typed is still in the form below, ready to send then. Or go back to <a href="/treks/sample-trek#enquiry-form">the form on the Fixture Trek page</a>.',
    );
    expect(html).toContain('<a href="/treks/sample-trek#enquiry-form">Back to Fixture Trek</a>');
    expect(await enquiries.list()).toHaveLength(5);

    // Posted from another site: refused before the quota is looked at (it is not the visitor's), with nothing of it shown back.
    const foreign = await ask(
      post(typed, { type: 'application/x-www-form-urlencoded', headers: { Origin: 'https://evil.example' } }),
      deps({ limiter }),
    );
    expect(foreign.status).toBe(403);
    const page = await foreign.text();
    expect(page).toContain('only be sent from our own trip pages');
    expect(page).not.toContain('Asha');
    expect(page).not.toContain('<form');
  });

  it('lets enquiries through when the counter store fails', async () => {
    const limiter = createRateLimiter(bookingRateLimit, { hit: () => Promise.reject(new Error('counters down')) });
    expect((await ask(post(valid), deps({ limiter }))).status).toBe(201);
  });
});

describe('the plain HTML form (no JavaScript)', () => {
  const form = {
    tripSlug: 'sample-trek',
    name: 'Asha Rao',
    phone: '98765 43210',
    groupSize: '2',
    preferredDeparture: '',
    message: '',
    website: '',
  };

  it("success: 303 to the enquiry's own thank-you page, the enquiry stored and sent", async () => {
    const response = await ask(
      post(form, { type: 'application/x-www-form-urlencoded', headers: { Origin: 'http://127.0.0.1:4321' } }),
    );
    expect(response.status).toBe(303);
    const [stored] = await enquiries.list();
    expect(response.headers.get('Location')).toBe(`/enquiry-sent?ref=${stored?.id}`);
    expect(stored).toMatchObject({
      phone: '98765 43210',
      email: null,
      groupSize: 2,
      preferredDeparture: null,
      message: null,
      deliveryState: 'delivered',
    });
  });

  it('errors: the form again with what was typed, each problem once and next to its field', async () => {
    const typed = {
      ...form,
      name: '',
      groupSize: '<b>99</b>',
      email: 'asha@',
      preferredDeparture: 'Late "June"',
      message: '\nTwo of us & a dog',
    };
    const response = await ask(post(typed, { type: 'application/x-www-form-urlencoded' }));
    expect(response.status).toBe(400);
    expect(response.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    const html = await response.text();
    expect(html).toContain('<h1>Your enquiry was not sent</h1>');
    expect(html).toContain('<meta name="robots" content="noindex">');
    // Once: the summary names the fields, the messages stand next to them.
    expect(html).toContain(
      '3 fields need another look: <a href="#enquiry-name">Your name</a>, <a href="#enquiry-email">Email</a>, <a href="#enquiry-groupSize">People in your group</a>.',
    );
    // What a person reads: the fields also carry the messages in attributes, for the browser's own checks.
    const shown = html.replace(/<[^>]*>/g, '');
    for (const [field, text] of [
      ['name', 'Tell us your name so the guide knows whom to ask for.'],
      ['email', 'Give an email address such as asha@example.com'],
      ['groupSize', 'Group size must be a whole number from 1 to 12 for Fixture Trek'],
    ] as const) {
      expect(shown.split(text).length - 1, field).toBe(1);
      expect(html).toMatch(
        new RegExp(`<p class="field-error" id="enquiry-${field}-error">${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
      );
      expect(html).toMatch(
        new RegExp(`id="enquiry-${field}" name="${field}" aria-describedby="[^"]*" aria-invalid="true"`),
      );
    }
    // Everything typed is back in its field, escaped.
    expect(html).toContain('value="&lt;b&gt;99&lt;/b&gt;"');
    expect(html).not.toContain('<b>99');
    expect(html).toContain('value="asha@"');
    expect(html).toContain('value="Late &quot;June&quot;"');
    expect(html).toContain('value="98765 43210"');
    expect(html).toMatch(/<textarea [^>]*>\n\nTwo of us &amp; a dog<\/textarea>/);
    expect(html).not.toMatch(/id="enquiry-phone"[^>]*aria-invalid/);
    // The one-line fields count with their pattern; only the message (a textarea, which takes none) has a maxlength.
    expect(html.match(/maxlength="\d+"/g)).toEqual(['maxlength="2000"']);
    expect(html).toContain('<a href="/treks/sample-trek#enquiry-form">Back to Fixture Trek</a>');
    expect(html).toContain(`mailto:${contact}`);
  });

  it('an over-long name comes back whole, refused next to its field', async () => {
    const name = `Asha ${'R'.repeat(495)}`;
    const response = await ask(post({ ...form, name }, { type: 'application/x-www-form-urlencoded' }));
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain(`value="${name}"`);
    expect(html).toContain(
      '<p class="field-error" id="enquiry-name-error">Your name can be at most 100 characters; it has 500. Please shorten it.</p>',
    );
    expect(await enquiries.list()).toEqual([]);
  });

  it('a problem without a field to show (the honeypot) is said in the summary', async () => {
    const response = await ask(
      post({ ...form, website: 'http://spam.example' }, { type: 'application/x-www-form-urlencoded' }),
    );
    const html = await response.text();
    expect(html).toContain(
      '<p>The &quot;website&quot; field must be left empty. It is there to catch automated spam.</p>',
    );
  });

  it('stored but not delivered: says so with the reference, and shows no form to send it again', async () => {
    writeFileSync(path.join(dataDir, 'outbox'), 'a file where the folder should be');
    const response = await ask(post(form, { type: 'application/x-www-form-urlencoded' }));
    expect(response.status).toBe(503);
    const html = await response.text();
    const [stored] = await enquiries.list();
    expect(html).toContain('<h1>Your enquiry is saved but not sent yet</h1>');
    expect(html).toContain(`reference ${stored?.id}`);
    expect(html).toContain(`href="/enquiry-sent?ref=${stored?.id}"`);
    expect(html).not.toContain('<form');
  });

  it('a form posted under another host name: 403, nothing stored, though its Origin matches the request URL', async () => {
    // DNS rebinding: the attacker's name resolves to this server, so Host (and request.url) name the attacker's origin too.
    const rebound = new Request('http://attacker.example:4321/api/bookings', {
      method: 'POST',
      body: new URLSearchParams(form).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'http://attacker.example:4321' },
    });
    const response = await ask(rebound);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('only be sent from our own trip pages');
    expect(await enquiries.list()).toEqual([]);
  });

  it('a form posted from another site: 403, nothing stored', async () => {
    const response = await ask(
      post(form, { type: 'application/x-www-form-urlencoded', headers: { Origin: 'https://evil.example' } }),
    );
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('only be sent from our own trip pages');
    expect(await enquiries.list()).toEqual([]);
  });
});
