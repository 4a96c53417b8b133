/**
 * Each enquiry taken once (service/bookings/idempotency.ts), as one suite run on every kind of
 * operational storage: POST /api/bookings with an Idempotency-Key, the form's one-time token and
 * a plain form sent twice, as functions of (Request, deps) on the storage given, the real outbox
 * and the real rate limiter on an injected clock. Embedded PostgreSQL runs it in
 * tests/bookings/idempotency.test.ts; PostgreSQL directly and through PgBouncer in
 * tests/bookings/postgres.test.ts, where requests sent at once really race.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../service/bookings/idempotency.ts';
import { handleBookingEnquiry, type BookingDeps } from '../../service/bookings/index.ts';
import type { Mailer } from '../../service/bookings/mailer.ts';
import { EnquiryStore } from '../../service/bookings/store.ts';
import { bookingRateLimit } from '../../service/rules/policy.ts';
import { createRateLimiter, MemoryCounterStore } from '../../service/rules/rate-limiter.ts';
import type { Sql } from '../../service/storage/sql.ts';
import { loadCatalogue } from '../helpers/content.ts';
import { handlerDeps } from './page-writer.ts';

/** Registers the suite on the storage `open` gives (closed after it). */
export function enquiriesTakenOnce(storage: string, open: () => Promise<Sql>): void {
  describe(`each enquiry taken once, on ${storage}`, () => suite(open));
}

const catalogue = loadCatalogue(undefined, 'http://127.0.0.1:4321');
const valid = { tripSlug: 'sample-trek', name: 'Asha Rao', phone: '+91 98765 43210', groupSize: 2 };

function suite(open: () => Promise<Sql>): void {
  let sql: Sql;
  let enquiries: EnquiryStore;
  let dataDir: string;
  let now: number;

  beforeAll(async () => {
    sql = await open();
    enquiries = new EnquiryStore(sql);
    await enquiries.ready();
  });
  afterAll(() => sql.close());
  beforeEach(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'enquiries-once-'));
    now = Date.parse('2026-11-22T04:30:00Z');
    await sql.query('DELETE FROM enquiries');
    return () => rmSync(dataDir, { recursive: true, force: true });
  });

  const deps = (overrides: Partial<BookingDeps> = {}): BookingDeps =>
    handlerDeps({ catalogue, enquiries, departures: null, dataDir, clock: () => new Date(now) }, overrides);

  function post(body: unknown, headers: Record<string, string> = {}, form = false): Request {
    return new Request('http://127.0.0.1:4321/api/bookings', {
      method: 'POST',
      body: form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body),
      headers: { 'Content-Type': form ? 'application/x-www-form-urlencoded' : 'application/json', ...headers },
    });
  }

  async function send(request: Request, d = deps(), clientIp = '203.0.113.7') {
    const response = await handleBookingEnquiry(request, d, { clientIp });
    const text = await response.text();
    return {
      status: response.status,
      location: response.headers.get('Location'),
      retryAfter: response.headers.get('Retry-After'),
      text,
      body: (response.headers.get('Content-Type') ?? '').includes('json') ? JSON.parse(text) : null,
    };
  }

  const stored = async () => (await enquiries.list()).length;
  const outbox = () => {
    try {
      return readdirSync(path.join(dataDir, 'outbox'));
    } catch {
      return [];
    }
  };
  const key = (value: string) => ({ 'Idempotency-Key': `"${value}"` });

  describe('Idempotency-Key on POST /api/bookings', () => {
    it('the same key with the same body gets the first answer again, and one enquiry is kept and sent', async () => {
      const first = await send(post(valid, key('8e03978e-40d5-43e8-bc93-6894a57f9324')));
      expect(first.status).toBe(201);
      // A retry, quoted as the draft has it or bare as many clients send it, on the next day.
      now += 23 * 3600_000;
      for (const header of [
        key('8e03978e-40d5-43e8-bc93-6894a57f9324'),
        { 'Idempotency-Key': '8e03978e-40d5-43e8-bc93-6894a57f9324' },
      ]) {
        const again = await send(post(valid, header));
        expect(again.status).toBe(201);
        expect(again.body).toEqual(first.body);
      }
      expect(await stored()).toBe(1);
      expect(outbox()).toHaveLength(1);
    });

    it('the same key with another body: 422 with a clear message, nothing kept', async () => {
      await send(post(valid, key('k-422')));
      const other = await send(post({ ...valid, groupSize: 3 }, key('k-422')));
      expect(other.status).toBe(422);
      expect(other.body.error).toEqual({
        code: 'idempotency_key_reused',
        message:
          "This Idempotency-Key was already used for an enquiry with other details, so nothing was sent. To get that enquiry's answer, send exactly the same request again; to send a new enquiry, use a new key.",
      });
      expect(other.body.enquiry).toBeUndefined();
      expect(await stored()).toBe(1);
    });

    it('refuses a key that is empty, too long or not a string (400), and takes one of 255 characters', async () => {
      for (const bad of ['', '""', '"a', 'two words', 'a,b', `"${'k'.repeat(256)}"`, 'é', '"a\\b"']) {
        const refused = await send(post(valid, { 'Idempotency-Key': bad }));
        expect(refused.status, bad).toBe(400);
        expect(refused.body.error.code, bad).toBe('invalid_idempotency_key');
        expect(refused.body.error.message, bad).toContain('1 to 255 visible ASCII characters');
      }
      expect(await stored()).toBe(0);
      expect((await send(post(valid, key('k'.repeat(255))))).status).toBe(201);
      expect((await send(post(valid, key('with \\"quotes\\" and \\\\')))).status).toBe(201);
      expect(await stored()).toBe(2);
    });

    it('keeps one enquiry when the same request arrives many times at once, and each answer names it', async () => {
      const answers = await Promise.all(Array.from({ length: 8 }, () => send(post(valid, key('k-race')))));
      expect(await stored()).toBe(1);
      const [enquiry] = await enquiries.list();
      for (const answer of answers) {
        if (answer.status === 201) expect(answer.body.enquiry.id).toBe(enquiry!.id);
        else {
          // Still being answered when it arrived: 409, ask again in a second.
          expect(answer.status).toBe(409);
          expect(answer.body.error.code).toBe('enquiry_in_progress');
          expect(answer.retryAfter).toBe('1');
        }
      }
      expect(answers.filter((a) => a.status === 201).length).toBeGreaterThanOrEqual(1);
      expect((await send(post(valid, key('k-race')))).body.enquiry.id).toBe(enquiry!.id);
      expect(outbox()).toHaveLength(1);
    });

    it('gives the first answer again when it was "kept but not delivered", with the same reference', async () => {
      const down: Mailer = { description: 'down', send: () => Promise.reject(new Error('mail is down')) };
      const first = await send(post(valid, key('k-saved')), deps({ mailer: down }));
      expect(first.status).toBe(502);
      expect(first.body.enquiry.status).toBe('saved');
      const again = await send(post(valid, key('k-saved')));
      expect(again.status).toBe(502);
      expect(again.body).toEqual(first.body);
      expect(await stored()).toBe(1);
    });

    it('delivers an enquiry whose first request was cut short between keeping and sending it, when it is sent again', async () => {
      // Kept under the key, as by a process stopped before it delivered and noted its answer.
      const kept = await enquiries.addOnce(
        { ...valid, email: null, preferredDeparture: null, message: null },
        { trip: { name: 'Fixture Trek', url: `${catalogue.siteUrl}/treks/sample-trek` }, callbackPromise: null },
        new Date(now),
        { key: 'key:k-cut', fingerprint: fingerprintOf(valid), keptSince: new Date(0) },
      );
      expect('taken' in kept).toBe(true);
      // A moment later its first request may still be sending it: ask again in a second.
      expect((await send(post(valid, key('k-cut')))).status).toBe(409);
      expect(outbox()).toEqual([]);
      // Later, nothing has come of it: this request delivers it, once, and gives the answer.
      now += 6_000;
      const due = await send(post(valid, key('k-cut')));
      expect(due.status).toBe(201);
      expect(outbox()).toEqual([`${due.body.enquiry.id}.eml`]);
      expect((await send(post(valid, key('k-cut')))).body).toEqual(due.body);
      expect(outbox()).toHaveLength(1);
      expect(await stored()).toBe(1);
    });

    it('forgets a key after 24 hours: the same key then takes a new enquiry', async () => {
      const first = await send(post(valid, key('k-day')));
      now += 24 * 3600_000 + 1000;
      const later = await send(post(valid, key('k-day')));
      expect(later.status).toBe(201);
      expect(later.body.enquiry.id).not.toBe(first.body.enquiry.id);
      expect(await stored()).toBe(2);
    });

    it('a request sent again does not count against the enquiry quota; a new one does', async () => {
      const limiter = createRateLimiter(bookingRateLimit, new MemoryCounterStore(), () => now);
      const d = deps({ limiter });
      for (let i = 1; i <= 5; i += 1)
        expect((await send(post({ ...valid, message: `#${i}` }, key(`k-quota-${i}`)), d)).status).toBe(201);
      // The quota is used up, yet a retry of the first still gets its answer.
      expect((await send(post({ ...valid, message: '#1' }, key('k-quota-1')), d)).status).toBe(201);
      expect((await send(post({ ...valid, message: '#6' }, key('k-quota-6')), d)).status).toBe(429);
      expect(await stored()).toBe(5);
    });

    it('without a key, a JSON request sent twice is two enquiries, as before', async () => {
      await send(post(valid));
      await send(post(valid));
      expect(await stored()).toBe(2);
    });
  });

  describe("the form's one-time token", () => {
    const form = { ...valid, groupSize: '2', website: '' };

    it('a plain form sent twice (a double click, a resend after a timeout) is one enquiry: both go to its page', async () => {
      const first = await send(post(form, {}, true));
      const second = await send(post(form, {}, true));
      expect(first.status).toBe(303);
      expect(second.status).toBe(303);
      expect(second.location).toBe(first.location);
      expect(await stored()).toBe(1);
      // Other details are another enquiry.
      expect((await send(post({ ...form, groupSize: '3' }, {}, true))).location).not.toBe(first.location);
      expect(await stored()).toBe(2);
    });

    it('a form with its token sent twice at once is one enquiry, and both go to its page', async () => {
      const withToken = { ...form, formToken: 'a1b2c3d4e5f6' };
      const answers = await Promise.all([send(post(withToken, {}, true)), send(post(withToken, {}, true))]);
      expect(answers.map((a) => a.status)).toEqual([303, 303]);
      expect(answers[1].location).toBe(answers[0].location);
      expect(await stored()).toBe(1);
    });

    it('the form shown again after a refusal carries a token, and sending it twice is one enquiry', async () => {
      const refused = await send(post({ ...form, phone: 'call me' }, {}, true));
      expect(refused.status).toBe(400);
      const token = /name="formToken" value="([^"]+)"/.exec(refused.text)?.[1];
      expect(token).toMatch(/^[A-Za-z0-9_-]{24}$/);
      const fixed = { ...form, formToken: token! };
      const first = await send(post(fixed, {}, true));
      const again = await send(post(fixed, {}, true));
      expect([first.status, again.status]).toEqual([303, 303]);
      expect(again.location).toBe(first.location);
      expect(await stored()).toBe(1);
    });
  });
}
