/**
 * Departure alerts in the test's process, on the embedded database (PGlite in memory) and the
 * real outbox: a watch asked for by email is
 * answered the same whoever asks, kept once, confirmed by its one email; the alert job names
 * exactly what changed, once a day at most, with RFC 8058's one-click unsubscribe; failed mail is
 * retried; and what is no longer kept is deleted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { alertsAboutMarkdown } from '../../service/alerts/about.ts';
import { runAlertJob } from '../../service/alerts/job.ts';
import { retention } from '../../service/departures/alert-paths.ts';
import { alertMailer } from '../../service/alerts/delivery.ts';
import { handleConfirm, handleUnsubscribe, handleWatch, type AlertDeps } from '../../service/alerts/requests.ts';
import { AlertStore } from '../../service/alerts/store.ts';
import { ResendMailer } from '../../service/bookings/mailer.ts';
import { readSettings } from '../../service/config.ts';
import { departureInput } from '../../service/departures/input.ts';
import { DepartureStore } from '../../service/departures/store.ts';
import { knownTrips } from '../../service/departures/trips.ts';
import { boardMain } from '../../service/departures/board-page.ts';
import { readBoardQuery } from '../../service/departures/board-filters.ts';
import type { LiveDepartures } from '../../service/departures/live.ts';
import { toDeparture } from '../../service/departures/source.ts';
import { alertAddressQuota, alertRateLimit } from '../../service/rules/policy.ts';
import { createRateLimiter, MemoryCounterStore } from '../../service/rules/rate-limiter.ts';
import type { Sql } from '../../service/storage/sql.ts';
import { barePage } from '../bookings/page-writer.ts';
import { startFakeResend, type FakeResend } from '../bookings/resend-fake.ts';
import { freshDatabase } from '../helpers/embedded-template.ts';
import { loadCatalogue } from '../helpers/content.ts';
import { readOutbox, type OutboxMail } from './outbox.ts';

const site = 'http://127.0.0.1:4321';
const catalogue = loadCatalogue(undefined, site);
const trips = knownTrips(catalogue);
const hour = 3_600_000;

let sql: Sql;
let departures: DepartureStore;
let alerts: AlertStore;
let dataDir: string;
let now: Date;
const clock = () => now;

beforeAll(async () => {
  sql = await freshDatabase();
  departures = new DepartureStore(async () => sql, { trips });
  alerts = new AlertStore(sql);
});
afterAll(() => sql?.close());

beforeEach(async () => {
  // The time of the database's clock, which stamps changes: the change log keeps 90 days of them.
  now = new Date();
  await alerts.ready();
  await departures.ready();
  await sql.query('DELETE FROM watches');
  await sql.query('DELETE FROM alert_mails');
  await sql.query('DELETE FROM departure_changes');
  await sql.query('DELETE FROM departures');
  dataDir = mkdtempSync(path.join(tmpdir(), 'alerts-unit-'));
  seen = [];
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const add = (fields: Record<string, unknown>) => departures.add(departureInput.parse(fields));

function deps(overrides: Partial<AlertDeps> = {}): AlertDeps {
  return {
    catalogue,
    store: async () => alerts,
    departure: async (id) => {
      const d = await departures.get(id);
      return d?.published ? d : null;
    },
    limiter: createRateLimiter(alertRateLimit, new MemoryCounterStore(), () => now.getTime()),
    mailer: alertMailer(readSettings({ DATA_DIR: dataDir }), catalogue.site.contactEmail),
    clock,
    page: barePage,
    later: async (work) => void (await work),
    ...overrides,
  };
}

/** The files of the outbox in the order they came (a file's name is random past its kind and day). */
let seen: string[] = [];

/** The emails in the outbox, oldest first. */
async function outbox(): Promise<OutboxMail[]> {
  const mails = await readOutbox(dataDir);
  const came = mails.filter((m) => !seen.includes(m.file)).sort((a, b) => a.writtenAt - b.writtenAt);
  seen = [...seen, ...came.map((m) => m.file)];
  return mails.sort((a, b) => seen.indexOf(a.file) - seen.indexOf(b.file));
}

const watchRequest = (fields: Record<string, string | number>, format: 'json' | 'form' = 'json') =>
  new Request(`${site}/alerts/watch`, {
    method: 'POST',
    headers: {
      'Content-Type': format === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
      Origin: site,
    },
    body:
      format === 'json'
        ? JSON.stringify(fields)
        : new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])).toString(),
  });

const linkIn = (text: string, pathname: string) => {
  const found = text.match(new RegExp(`${site}${pathname}\\?token=[A-Za-z0-9_-]{43}`));
  if (!found) throw new Error(`no ${pathname} link in:\n${text}`);
  return found[0];
};

/** Watches a departure for `email` and confirms it from the confirmation email, as a person would. */
async function watchAndConfirm(email: string, fields: Record<string, string | number>): Promise<void> {
  const before = (await outbox()).length;
  const res = await handleWatch(watchRequest({ email, ...fields }), deps(), '127.0.0.1');
  expect(res.status).toBe(202);
  const mails = await outbox();
  expect(mails).toHaveLength(before + 1);
  const confirm = linkIn(mails.at(-1)!.text, '/alerts/confirm');
  const token = new URL(confirm).searchParams.get('token')!;
  const page = await handleConfirm(
    new Request(confirm, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `token=${token}`,
    }),
    new URL(confirm),
    deps(),
  );
  expect(page.status).toBe(200);
}

const job = (overrides: Partial<AlertDeps> = {}) => {
  const d = deps(overrides);
  return runAlertJob({ store: alerts, mailer: d.mailer, catalogue, clock });
};

/** `update`'s input, as the CLI's schema gives it. */
function departureChanges(fields: Record<string, unknown>) {
  return fields as Parameters<DepartureStore['update']>[1];
}

describe('watching a date', () => {
  it('asks for nothing but the address, sends one confirmation and nothing else until it is confirmed', async () => {
    const soldOut = await add({ tripSlug: 'sample-trek', startDate: '2027-06-10', seatsTotal: 12, seatsLeft: 0 });
    const res = await handleWatch(
      watchRequest({ email: 'Walker@Example.com', departure: soldOut.id, people: 2 }),
      deps(),
      '127.0.0.1',
    );
    expect(res.status).toBe(202);
    const answer = await res.json();
    const mails = await outbox();
    expect(mails).toHaveLength(1);
    const [confirmation] = mails;
    expect(confirmation!.to).toBe('Walker@Example.com');
    expect(confirmation!.subject).toContain('Confirm your departure alert');
    expect(confirmation!.text).toContain('Fixture Trek');
    expect(confirmation!.headers['list-unsubscribe']).toMatch(
      /^<http:\/\/127\.0\.0\.1:4321\/alerts\/unsubscribe\?token=/,
    );
    expect(confirmation!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(confirmation!.text).toContain(linkIn(confirmation!.text, '/alerts/unsubscribe'));

    // Seats open before it is confirmed: the job sends nothing to an unconfirmed watch.
    await departures.update(soldOut.id, departureChanges({ seatsLeft: 4 }));
    now = new Date(now.getTime() + 2 * hour);
    expect(await job()).toMatchObject({ queued: 0 });
    expect(await outbox()).toHaveLength(1);
    expect(answer).toEqual({
      status: 'check_your_inbox',
      message: expect.stringContaining('If this address is not watching it yet, we have sent it one email'),
    });
  });

  it('gives the same answer to an address already watching, and keeps one watch', async () => {
    const soldOut = await add({ tripSlug: 'sample-trek', startDate: '2027-06-10', seatsTotal: 12, seatsLeft: 0 });
    const ask = async (email: string, format: 'json' | 'form') => {
      const res = await handleWatch(watchRequest({ email, departure: soldOut.id }, format), deps(), '127.0.0.1');
      const body = await res.text();
      return { status: res.status, body: body.replace(/[A-Za-z0-9_-]{43}/g, '…') };
    };
    for (const format of ['json', 'form'] as const) {
      await sql.query('DELETE FROM watches');
      const first = await ask('twice@example.com', format);
      const again = await ask(' TWICE@example.com', format);
      await watchAndConfirm('twice@example.com', { departure: soldOut.id });
      const confirmed = await ask('twice@example.com', format);
      const stranger = await ask('someone-else@example.com', format);
      expect([again, confirmed, stranger]).toEqual([first, first, first]);
      const { rows } = await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM watches WHERE email_key = 'twice@example.com'`,
      );
      expect(rows[0]!.n).toBe(1);
    }
  });

  it('alerts once, naming the date and the seats, at most one email a day, and one-click unsubscribe stops all mail', async () => {
    const soldOut = await add({ tripSlug: 'sample-trek', startDate: '2027-06-10', seatsTotal: 12, seatsLeft: 0 });
    await watchAndConfirm('party@example.com', { departure: soldOut.id, people: 3 });
    // Two seats are not enough for a party of three: nothing to say yet.
    await departures.update(soldOut.id, departureChanges({ seatsLeft: 2 }));
    expect(await job()).toMatchObject({ queued: 0 });
    await departures.update(soldOut.id, departureChanges({ seatsLeft: 5 }));
    expect(await job()).toMatchObject({ queued: 1, delivered: 1 });
    const alert = (await outbox()).at(-1)!;
    expect(alert.to).toBe('party@example.com');
    expect(alert.subject).toBe('Seats open: Fixture Trek, 10 Jun 2027 to 11 Jun 2027');
    expect(alert.text).toContain(
      'Fixture Trek, 10 Jun 2027 to 11 Jun 2027. Seats opened: 2 of 12 seats left → 5 of 12 seats left.',
    );
    expect(alert.text).toContain(`${site}/treks/sample-trek/enquire?departure=${soldOut.id}`);
    expect(alert.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const unsubscribe = alert.headers['list-unsubscribe']!.slice(1, -1);
    expect(alert.text).toContain(unsubscribe);

    // The same run again sends nothing; a lower price the same day waits for the next day.
    expect(await job()).toMatchObject({ queued: 0 });
    await departures.update(soldOut.id, departureChanges({ priceInr: 13_000 }));
    now = new Date(now.getTime() + 3 * hour);
    expect(await job()).toMatchObject({ queued: 0 });
    now = new Date(now.getTime() + 24 * hour);
    expect(await job()).toMatchObject({ queued: 1 });
    const second = (await outbox()).at(-1)!;
    expect(second.subject).toBe('Lower price: Fixture Trek, 10 Jun 2027 to 11 Jun 2027');
    expect(second.text).toContain('Price lowered: ₹15,000 → ₹13,000 per person');
    expect(second.text).not.toContain('Seats opened');

    // One-click, as a mail client sends it (RFC 8058): a POST with only that body, no cookie.
    const oneClick = await handleUnsubscribe(
      new Request(unsubscribe, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      }),
      new URL(unsubscribe),
      deps(),
    );
    expect(oneClick.status).toBe(200);
    expect(oneClick.headers.get('Content-Type')).toBe('text/plain; charset=utf-8');
    expect(await oneClick.text()).toMatch(/^Unsubscribed: no more alerts go to this address/);
    const { rows } = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM watches`);
    expect(rows[0]!.n).toBe(0);
    const sent = (await outbox()).length;
    await departures.update(soldOut.id, departureChanges({ priceInr: 11_000 }));
    now = new Date(now.getTime() + 48 * hour);
    expect(await job()).toMatchObject({ queued: 0 });
    expect(await outbox()).toHaveLength(sent);
  });

  it('takes a one-click unsubscribe sent as multipart/form-data, as RFC 8058 asks', async () => {
    const soldOut = await add({ tripSlug: 'sample-trek', startDate: '2027-06-10', seatsTotal: 12, seatsLeft: 0 });
    await watchAndConfirm('multipart@example.com', { departure: soldOut.id });
    await watchAndConfirm('multipart@example.com', { month: '2027-06' });
    const unsubscribe = (await outbox()).at(-1)!.headers['list-unsubscribe']!.slice(1, -1);
    const body = new FormData();
    body.set('List-Unsubscribe', 'One-Click');
    const res = await handleUnsubscribe(
      new Request(unsubscribe, { method: 'POST', body }),
      new URL(unsubscribe),
      deps(),
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/^Unsubscribed/);
    // One click stops every alert to the address, as "unsubscribe" in a mail client means.
    const { rows } = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM watches`);
    expect(rows[0]!.n).toBe(0);
  });

  it('a search watched hears of a new date that fits, not of one that does not', async () => {
    await watchAndConfirm('search@example.com', { month: '2027-08', minSeats: 2 });
    await add({ tripSlug: 'sample-trek', startDate: '2027-09-04', seatsTotal: 12 });
    await add({ tripSlug: 'sample-trek', startDate: '2027-08-04', seatsTotal: 12, seatsLeft: 1 });
    expect(await job()).toMatchObject({ queued: 0 });
    const fits = await add({ tripSlug: 'sample-expedition', startDate: '2027-08-14', seatsTotal: 8 });
    expect(await job()).toMatchObject({ queued: 1 });
    const alert = (await outbox()).at(-1)!;
    expect(alert.subject).toMatch(/^A date that fits: departures: /);
    expect(alert.text).toContain(`New date: Open, 8 of 8 seats left`);
    expect(alert.text).toContain(fits.id);
    expect(alert.text).toContain(`${site}/departures?month=2027-08&minSeats=2`);
  });

  it('keeps nothing past its time: unconfirmed within a day, a started date, a search past its end', async () => {
    const soon = await add({ tripSlug: 'sample-trek', startDate: '2027-06-10', seatsTotal: 12, seatsLeft: 0 });
    const later = await add({ tripSlug: 'sample-trek', startDate: '2027-07-10', seatsTotal: 12, seatsLeft: 0 });
    await watchAndConfirm('started@example.com', { departure: soon.id });
    await watchAndConfirm('later@example.com', { departure: later.id });
    await watchAndConfirm('june@example.com', { month: '2027-06' });
    await handleWatch(watchRequest({ email: 'never@example.com', departure: later.id }), deps(), '127.0.0.1');
    const left = async () =>
      (await sql.query<{ email: string }>('SELECT email FROM watches ORDER BY email')).rows.map((r) => r.email);
    expect(await left()).toEqual(['june@example.com', 'later@example.com', 'never@example.com', 'started@example.com']);
    now = new Date(now.getTime() + 24 * hour);
    await job();
    expect(await left()).toEqual(['june@example.com', 'later@example.com', 'started@example.com']);
    // 10 June 2027 in India: the date has started, so its watch goes.
    now = new Date('2027-06-09T19:00:00Z');
    await job();
    expect(await left()).toEqual(['june@example.com', 'later@example.com']);
    now = new Date('2027-06-30T19:00:00Z');
    await job();
    expect(await left()).toEqual(['later@example.com']);
  });

  it('refuses a field it does not take, or a value that is not text, and keeps no watch for it', async () => {
    const before = (await outbox()).length;
    const watches = async () => (await sql.query('SELECT count(*)::int AS n FROM watches')).rows;
    const kept = await watches();
    const asked = (body: string, format: 'json' | 'form' = 'json') =>
      handleWatch(
        new Request(`${site}/alerts/watch`, {
          method: 'POST',
          headers: {
            'Content-Type': format === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
            Origin: site,
          },
          body,
        }),
        deps(),
        '10.0.9.1',
      );
    // A search sent as a nested object would otherwise be a watch of every departure.
    const nested = await asked(JSON.stringify({ email: 'nested@example.com', search: { type: 'trek' } }));
    expect(nested.status).toBe(400);
    expect((await nested.json()).error).toMatchObject({
      code: 'invalid_alert',
      message: expect.stringMatching(/no field "search"/),
    });
    const misspelt = await asked(JSON.stringify({ email: 'misspelt@example.com', departureId: 'dep-1' }));
    expect(misspelt.status).toBe(400);
    expect((await misspelt.json()).error.message).toMatch(/no field "departureId"/);
    const typed = await asked(JSON.stringify({ email: 'typed@example.com', type: ['trek'] }));
    expect(typed.status).toBe(400);
    expect((await typed.json()).error).toMatchObject({ field: 'type', message: 'Send "type" as text or a number.' });
    const form = await asked('email=form%40example.com&serach=trek', 'form');
    expect(form.status).toBe(400);
    expect(await form.text()).toContain('no field &quot;serach&quot;');
    expect(await watches()).toEqual(kept);
    expect((await outbox()).length).toBe(before);
  });

  it('has quotas per client and per address, and answers them as it answers anything', async () => {
    const soldOut = await add({ tripSlug: 'sample-trek', startDate: '2027-06-10', seatsTotal: 12, seatsLeft: 0 });
    const shared = deps();
    const statuses: number[] = [];
    for (let i = 0; i < alertRateLimit.requests + 1; i += 1)
      statuses.push(
        (await handleWatch(watchRequest({ email: `c${i}@example.com`, departure: soldOut.id }), shared, '10.0.0.1'))
          .status,
      );
    expect(statuses.slice(0, -1).every((s) => s === 202)).toBe(true);
    expect(statuses.at(-1)).toBe(429);

    // One address, asked for from many clients: three confirmation emails a day at most.
    await sql.query('DELETE FROM watches');
    const before = (await outbox()).length;
    for (let i = 0; i < 5; i += 1) {
      const d = await add({ tripSlug: 'sample-trek', startDate: `2027-07-0${i + 1}`, seatsTotal: 12, seatsLeft: 0 });
      const answer = async (email: string, client: string) => {
        const res = await handleWatch(watchRequest({ email, departure: d.id }), deps(), client);
        return `${res.status} ${await res.text()}`;
      };
      // Over its quota, the address gets the answer a stranger gets.
      expect(await answer('target@example.com', `10.0.1.${i}`)).toBe(await answer(`fresh${i}@example.com`, '10.0.2.1'));
    }
    const toTarget = (await outbox()).slice(before).filter((m) => m.to === 'target@example.com');
    expect(toTarget).toHaveLength(3);
  });

  it('retries an alert whose delivery failed, with the same idempotency key, until it is delivered', async () => {
    let resend: FakeResend | undefined;
    try {
      resend = await startFakeResend();
      const mailer = new ResendMailer({
        apiKey: resend.apiKey,
        baseUrl: resend.url,
        from: 'Alerts <alerts@example.com>',
        to: 'team@example.com',
      });
      const soldOut = await add({ tripSlug: 'sample-trek', startDate: '2027-06-10', seatsTotal: 12, seatsLeft: 0 });
      await watchAndConfirm('retry@example.com', { departure: soldOut.id });
      await departures.update(soldOut.id, departureChanges({ seatsLeft: 6 }));
      resend.mode = 'fail';
      expect(await job({ mailer })).toMatchObject({ queued: 1, delivered: 0, failed: 1 });
      resend.mode = 'ok';
      // Not again at once: a minute on at least.
      expect(await job({ mailer })).toMatchObject({ delivered: 0, failed: 0 });
      now = new Date(now.getTime() + 10 * 60_000);
      expect(await job({ mailer })).toMatchObject({ queued: 0, delivered: 1 });
      const keys = resend.requests.map((r) => r.idempotencyKey);
      expect(keys).toHaveLength(2);
      expect(new Set(keys).size).toBe(1);
      const [sent] = resend.sent;
      expect(sent!.body).toMatchObject({ to: ['retry@example.com'] });
      expect((sent!.body.headers as Record<string, string>)['List-Unsubscribe-Post']).toBe(
        'List-Unsubscribe=One-Click',
      );
    } finally {
      await resend?.close();
    }
  });
});

describe('/alerts says what is kept, why and for how long', () => {
  it('with the numbers the job and the quotas keep to', () => {
    const page = alertsAboutMarkdown(catalogue);
    for (const words of [
      'The email address, what it watches',
      'only to send these alerts',
      `works for ${retention.confirmHours} hours`,
      'An alert you do not confirm is deleted within a day',
      "A date's alert is deleted when the date starts",
      `after ${retention.searchDays} days`,
      `kept for ${retention.changesDays} days`,
      `at most ${alertAddressQuota.confirmationsPerDay} confirmation emails a day`,
      'our answer is the same whether an address was watching already or not',
    ])
      expect(page).toContain(words);
  });
});

describe('the board offers to watch every search', () => {
  it('an empty one, one that finds nothing, and a board with no departures at all', async () => {
    const soldOut = await add({ tripSlug: 'sample-trek', startDate: '2027-06-10', seatsTotal: 12, seatsLeft: 0 });
    const departures = [toDeparture(soldOut, catalogue)!];
    const board = (search: string, live: LiveDepartures) =>
      boardMain(catalogue, live, { query: readBoardQuery(new URLSearchParams(search), catalogue, now), now }).value;
    const searches: [string, LiveDepartures][] = [
      ['', { state: 'live', departures }],
      ['minSeats=20&month=2027-09', { state: 'live', departures }],
      ['trip=sample-expedition', { state: 'live', departures: [] }],
    ];
    for (const [search, live] of searches) {
      const page = board(search, live);
      expect(page, search).toContain('<summary>Tell me about new dates that fit</summary>');
      expect(page, search).toContain('<form class="watch-form" method="post" action="/alerts/watch" data-watch>');
      for (const [name, value] of new URLSearchParams(search))
        expect(page, search).toContain(`<input type="hidden" name="${name}" value="${value}">`);
    }
    // The sold-out date offers its own watch.
    expect(board('', { state: 'live', departures })).toContain(
      `<input type="hidden" name="departure" value="${soldOut.id}">`,
    );
  });
});
