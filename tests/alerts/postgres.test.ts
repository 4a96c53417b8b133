/**
 * Departure alerts on a real PostgreSQL server, directly and through PgBouncer in transaction
 * mode: changes recorded by the operator's writes, and the alert job run by two instances at the
 * same moment (each with its own connection pool, as two Vercel functions or two Node hosts)
 * sending each alert once, through a loopback stand-in for Resend that counts every request.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runAlertJob } from '../../service/alerts/job.ts';
import { AlertStore } from '../../service/alerts/store.ts';
import type { Watch } from '../../service/alerts/watch.ts';
import { ResendMailer } from '../../service/bookings/mailer.ts';
import { DepartureChangeLog } from '../../service/departures/changes.ts';
import { departuresToCsv, readDepartureCsv } from '../../service/departures/csv.ts';
import { departureInput } from '../../service/departures/input.ts';
import { DepartureStore } from '../../service/departures/store.ts';
import { knownTrips } from '../../service/departures/trips.ts';
import { openServer } from '../../service/storage/postgres.ts';
import type { Sql } from '../../service/storage/sql.ts';
import { startFakeResend, type FakeResend } from '../bookings/resend-fake.ts';
import { loadCatalogue } from '../helpers/content.ts';
import { postgresRoutes } from '../departures/postgres.ts';

vi.setConfig({ testTimeout: 120_000 });

const catalogue = loadCatalogue(undefined, 'http://127.0.0.1:4321');
const trips = knownTrips(catalogue);
const postgres = postgresRoutes();
let resend: FakeResend;

beforeAll(async () => {
  resend = await startFakeResend();
});
afterAll(async () => {
  await resend?.close();
  await postgres.remove();
});

describe.each(postgres.routes)('alerts on $name', (route) => {
  let first: Sql;
  let second: Sql;
  let departures: DepartureStore;

  beforeAll(async () => {
    const url = await route.newDatabase('alerts_suite');
    first = await openServer(url);
    second = await openServer(url);
    departures = new DepartureStore(async () => first, { trips });
    await departures.ready();
  }, 120_000);
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  const mailer = () =>
    new ResendMailer({
      apiKey: resend.apiKey,
      baseUrl: resend.url,
      from: 'Alerts <alerts@example.com>',
      to: 'team@example.com',
    });

  it('records what each write changed', async () => {
    const added = await departures.add(
      departureInput.parse({ tripSlug: 'sample-trek', startDate: '2027-06-10', seatsTotal: 12, seatsLeft: 0 }),
    );
    await departures.update(added.id, { seatsLeft: 4 });
    await departures.update(added.id, { status: 'cancelled' });
    // A CSV import, as `npm run departures -- import` makes it: one date changed, one new.
    const rows = readDepartureCsv(
      `${departuresToCsv([{ ...added, status: 'open', seatsLeft: 9 }])}\n,sample-trek,2027-06-24,,,,12,12,,yes\n`,
    ).map(({ line, record }) => ({ line, input: departureInput.parse(record) }));
    expect(await departures.importDepartures(rows)).toMatchObject({ updated: [added.id] });
    const log = await new DepartureChangeLog(first).after(0);
    expect(log.map((c) => c.kinds)).toEqual([
      ['new_date'],
      ['seats_opened', 'status_changed'],
      ['cancelled'],
      ['seats_opened', 'status_changed'],
      ['new_date'],
    ]);
  });

  it('two runs of the job at the same moment send each alert once', async () => {
    const soldOut = await departures.add(
      departureInput.parse({ tripSlug: 'sample-trek', startDate: '2027-07-10', seatsTotal: 12, seatsLeft: 0 }),
    );
    const stores = [new AlertStore(first), new AlertStore(second)] as const;
    const now = new Date();
    const watchers = Array.from(
      { length: 24 },
      (_, i) => `watcher${i}-${route.pooled ? 'pooled' : 'direct'}@example.com`,
    );
    // Asked for twice at the same moment, from both instances: one watch each.
    const tokens = new Map<string, string>();
    await Promise.all(
      watchers.flatMap((email) =>
        stores.map((store) =>
          store.ask(
            { email, subject: { kind: 'departure', departureId: soldOut.id }, partySize: 2, until: soldOut.startDate },
            now,
            (_watch: Watch, confirm: string) => {
              tokens.set(email, confirm);
              return {
                mail: { subject: 'Confirm', text: confirm, html: confirm },
                unsubscribeUrl: 'http://127.0.0.1:4321/alerts/unsubscribe',
              };
            },
          ),
        ),
      ),
    );
    const { rows } = await first.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM watches WHERE departure_id = $1`,
      [soldOut.id],
    );
    expect(rows[0]!.n).toBe(watchers.length);
    for (const email of watchers)
      expect(await stores[0].confirm(tokens.get(email)!, now)).toMatchObject({ state: 'confirmed' });
    await first.query(`UPDATE alert_mails SET delivery_state = 'delivered'`);

    await departures.update(soldOut.id, { seatsLeft: 6 });
    const before = resend.requests.length;
    const runs = await Promise.all(
      stores.map((store) => runAlertJob({ store, mailer: mailer(), catalogue, clock: () => new Date() })),
    );
    // And a third run right after: nothing left to send.
    const after = await runAlertJob({ store: stores[1], mailer: mailer(), catalogue, clock: () => new Date() });
    const sent = resend.requests.slice(before);
    expect(runs[0]!.queued + runs[1]!.queued + after.queued).toBe(watchers.length);
    expect(runs[0]!.delivered + runs[1]!.delivered + after.delivered).toBe(watchers.length);
    expect(sent).toHaveLength(watchers.length);
    expect(sent.map((r) => (r.body.to as string[])[0]).sort()).toEqual([...watchers].sort());
    expect(new Set(sent.map((r) => r.idempotencyKey)).size).toBe(watchers.length);
    expect(sent.every((r) => String(r.body.subject).startsWith('Seats open: Fixture Trek'))).toBe(true);
  });
});
