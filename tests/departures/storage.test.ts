/**
 * One suite of departure-storage tests, run against every kind of operational storage: the
 * embedded PGlite database (in a data folder, as locally) and a real PostgreSQL server, directly
 * and through PgBouncer in transaction mode (as a hosted pooler such as Neon's runs).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { departuresToCsv, readDepartureCsv } from '../../service/departures/csv.ts';
import { departureInput, type DepartureInput } from '../../service/departures/input.ts';
import { migrate, migrations } from '../../service/storage/migrations/index.ts';
import { openEmbedded } from '../../service/storage/embedded.ts';
import { openServer } from '../../service/storage/postgres.ts';
import type { Sql } from '../../service/storage/sql.ts';
import type { AdminDeparture } from '../../service/departures/source.ts';
import { DepartureStore } from '../../service/departures/store.ts';
import { knownTrips } from '../../service/departures/trips.ts';
import { DepartureRuleError } from '../../service/departures/validation.ts';
import { loadCatalogue } from '../helpers/content.ts';
import { postgresRoutes } from './postgres.ts';

// Real databases and processes on a shared machine: opening PGlite alone can take seconds.
vi.setConfig({ testTimeout: 120_000 });

const trips = knownTrips(loadCatalogue());

interface Backend {
  name: string;
  open(): Promise<{ sql: Sql; cleanup: () => Promise<void> }>;
}

const postgres = postgresRoutes();

const backends: Backend[] = [
  {
    name: 'PGlite (embedded)',
    open: async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'departures-pglite-'));
      const sql = await openEmbedded(path.join(dir, 'pglite'));
      return { sql, cleanup: async () => (await sql.close(), rmSync(dir, { recursive: true, force: true })) };
    },
  },
  ...postgres.routes.map((route): Backend => ({
    name: route.name,
    open: async () => {
      const sql = await openServer(await route.newDatabase('departures_suite'));
      return { sql, cleanup: () => sql.close() };
    },
  })),
];

afterAll(() => postgres.remove());

/** Typed input, as the CLI's schema gives it. */
const input = (fields: Record<string, unknown>): DepartureInput => departureInput.parse(fields);

async function refusal(write: Promise<unknown>): Promise<string[]> {
  try {
    await write;
  } catch (error) {
    if (error instanceof DepartureRuleError) return error.issues.map((i) => `${i.field}: ${i.message}`);
    throw error;
  }
  throw new Error('the write was accepted');
}

describe.each(backends)('departure storage on $name', (backend) => {
  let store: DepartureStore;
  let sql: Sql;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ sql, cleanup } = await backend.open());
    store = new DepartureStore(async () => sql, { trips });
  }, 120_000);
  afterAll(() => cleanup?.());
  beforeEach(async () => {
    await store.ready();
    await sql.query('DELETE FROM departures');
  });

  it('applies every migration once, in order, however often it runs', async () => {
    expect(await migrate(sql)).toEqual([]);
    const { rows } = await sql.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual(migrations.map((m) => m.version));
  });

  it('adds a departure with its blanks filled in: id, end date from the trip length, seats and status', async () => {
    const added = await store.add(input({ tripSlug: 'sample-trek', startDate: '2030-06-10', seatsTotal: '12' }));
    expect(added).toEqual({
      id: 'sample-trek-2030-06-10',
      tripSlug: 'sample-trek',
      startDate: '2030-06-10',
      endDate: '2030-06-11',
      status: 'open',
      priceInr: null,
      seatsTotal: 12,
      seatsLeft: 12,
      note: null,
      published: true,
    });
    expect(await store.get(added.id)).toEqual(added);
    const second = await store.add(
      input({ tripSlug: 'sample-trek', startDate: '2030-06-10', seatsTotal: '8', seatsLeft: '2' }),
    );
    expect(second).toMatchObject({ id: 'sample-trek-2030-06-10-2', status: 'filling' });
    expect(await refusal(store.add(input({ id: added.id, tripSlug: 'sample-trek', startDate: '2030-07-01' })))).toEqual(
      [`id: a departure "${added.id}" already exists; change it with update`],
    );
  });

  it('refuses departures that break the rules, naming each field, and stores nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { tripSlug: 'no-such-trip', startDate: '2030-06-10', endDate: '2030-06-12' },
        'tripSlug: no trip has the slug "no-such-trip"',
      ],
      [
        { tripSlug: 'sample-trek', startDate: '2030-06-10', endDate: '2030-06-09' },
        'endDate: 2030-06-09 is before the start date 2030-06-10',
      ],
      [
        { tripSlug: 'sample-trek', startDate: '2030-06-10', endDate: '2031-06-09' },
        'endDate: 2030-06-10 to 2031-06-09 is longer than 90 days',
      ],
      [
        { tripSlug: 'sample-trek', startDate: '2030-06-10', seatsTotal: '12', seatsLeft: '13' },
        'seatsLeft: 13 is more than the 12 seats in total',
      ],
      [{ tripSlug: 'sample-trek', startDate: '2030-06-10', seatsTotal: '0' }, 'seatsTotal: 0 is outside 1 to 100'],
      [
        { tripSlug: 'sample-trek', startDate: '2030-06-10', seatsTotal: '12', seatsLeft: '-1' },
        'seatsLeft: -1 is below 0',
      ],
      [
        { tripSlug: 'sample-trek', startDate: '2030-06-10', seatsTotal: '12', seatsLeft: '4', status: 'sold out' },
        'status: sold_out needs 0 seats left',
      ],
      [
        { tripSlug: 'sample-trek', startDate: '2030-06-10', seatsTotal: '12', seatsLeft: '0', status: 'open' },
        'status: open needs seats left',
      ],
      [
        { tripSlug: 'sample-trek', startDate: '2030-06-10', priceInr: '0' },
        'priceInr: 0 must be a whole number of rupees',
      ],
      [
        { tripSlug: 'sample-trek', startDate: '2030-06-10', note: 'two\nlines' },
        'note: must be one line of plain text',
      ],
    ];
    for (const [fields, expected] of cases) {
      const issues = await refusal(store.add(input(fields)));
      expect(issues.join('\n'), JSON.stringify(fields)).toContain(expected);
    }
    expect(await store.count()).toBe(0);
  });

  it('lets the status follow the seats: sold out at 0, open again when seats free up, cancelled stays cancelled', async () => {
    const { id } = await store.add(
      input({ tripSlug: 'sample-trek', startDate: '2030-06-10', seatsTotal: '12', seatsLeft: '5' }),
    );
    expect((await store.update(id, { seatsLeft: 0 })).status).toBe('sold_out');
    expect((await store.update(id, { seatsLeft: 2 })).status).toBe('filling');
    expect((await store.update(id, { seatsLeft: 0 })).status).toBe('sold_out');
    expect((await store.update(id, { seatsLeft: 9 })).status).toBe('open');
    expect((await store.update(id, { status: 'cancelled' })).status).toBe('cancelled');
    expect((await store.update(id, { seatsLeft: 0 })).status).toBe('cancelled');
    expect((await store.update(id, { seatsLeft: 6 })).status).toBe('cancelled');
    expect((await store.update(id, { status: 'filling' })).status).toBe('filling');
    // sold_out named with seats left is a contradiction; named alone it sets the seats left to 0.
    expect(await refusal(store.update(id, { status: 'sold_out', seatsLeft: 6 }))).toEqual([
      expect.stringContaining('status: sold_out needs 0 seats left, but 6 are left'),
    ]);
    expect(await refusal(store.update(id, { seatsTotal: 4 }))).toEqual([
      'seatsLeft: 6 is more than the 4 seats in total',
    ]);
    expect(await refusal(store.update('nope', { seatsLeft: 1 }))).toEqual([
      expect.stringContaining('id: no departure has the id "nope"'),
    ]);
    expect(await store.get(id)).toMatchObject({ status: 'filling', seatsLeft: 6, seatsTotal: 12 });
    expect(await store.update(id, { status: 'sold_out' })).toMatchObject({ status: 'sold_out', seatsLeft: 0 });
  });

  it('updates price, note and dates, and falls back to the trip price when the price is cleared', async () => {
    const { id } = await store.add(
      input({ tripSlug: 'sample-trek', startDate: '2030-06-10', priceInr: '1,25,000', note: 'Festival week' }),
    );
    expect(await store.get(id)).toMatchObject({ priceInr: 125000, note: 'Festival week' });
    const changed = await store.update(id, {
      priceInr: null,
      note: null,
      startDate: '2030-06-12',
      endDate: '2030-06-13',
    });
    expect(changed).toMatchObject({ id, priceInr: null, note: null, startDate: '2030-06-12', endDate: '2030-06-13' });
    expect(await refusal(store.update(id, { endDate: '2030-06-01' }))).toEqual([
      'endDate: 2030-06-01 is before the start date 2030-06-12',
    ]);
  });

  it('publishes upcoming departures only, earliest first, never hidden or past ones', async () => {
    await store.add(input({ tripSlug: 'sample-trek', startDate: '2030-08-01' }));
    await store.add(input({ tripSlug: 'sample-expedition', startDate: '2030-06-01', endDate: '2030-06-20' }));
    await store.add(input({ tripSlug: 'sample-trek', startDate: '2030-06-01' }));
    await store.add(input({ tripSlug: 'sample-trek', startDate: '2030-07-01', published: 'no' }));
    await store.add(input({ tripSlug: 'sample-trek', startDate: '2020-07-01' }));
    const published = await store.listPublished({ from: '2026-01-01' });
    expect(published.map((d) => d.id)).toEqual([
      'sample-expedition-2030-06-01',
      'sample-trek-2030-06-01',
      'sample-trek-2030-08-01',
    ]);
    expect(published.every((d) => !('published' in d))).toBe(true);
    expect((await store.listPublished({ tripSlug: 'sample-expedition', from: '2026-01-01' })).map((d) => d.id)).toEqual(
      ['sample-expedition-2030-06-01'],
    );
    expect((await store.listAll()).map((d) => d.id)).toContain('sample-trek-2030-07-01');

    await store.setPublished(['sample-trek-2030-08-01'], false);
    await store.setPublished(['sample-trek-2030-07-01'], true);
    expect((await store.listPublished({ from: '2026-01-01' })).map((d) => d.id)).toEqual([
      'sample-expedition-2030-06-01',
      'sample-trek-2030-06-01',
      'sample-trek-2030-07-01',
    ]);
    expect(await refusal(store.setPublished(['sample-trek-2030-07-01', 'nope'], false))).toEqual([
      'id: no departure has the id "nope"',
    ]);
    expect((await store.get('sample-trek-2030-07-01'))?.published).toBe(true);
  });

  it('imports CSV rows all or nothing, and an export imports back unchanged', async () => {
    await store.add(input({ tripSlug: 'sample-trek', startDate: '2030-06-01', seatsTotal: '12' }));
    const csv = [
      'id,tripSlug,startDate,endDate,status,priceInr,seatsTotal,seatsLeft,note,published',
      'sample-trek-2030-06-01,sample-trek,2030-06-01,2030-06-02,,"18,500",12,0,"Monsoon, so bring a poncho",yes',
      ',sample-expedition,2030-07-01,2030-07-20,,,8,8,,no',
      ',sample-trek,2030-09-01,,open,,10,10,,',
    ].join('\r\n');
    const rows = readDepartureCsv(csv).map(({ line, record }) => ({ line, input: departureInput.parse(record) }));
    const result = await store.importDepartures(rows);
    expect(result).toEqual({
      added: ['sample-expedition-2030-07-01', 'sample-trek-2030-09-01'],
      updated: ['sample-trek-2030-06-01'],
      unchanged: [],
    });
    expect(await store.get('sample-trek-2030-06-01')).toMatchObject({
      status: 'sold_out',
      priceInr: 18500,
      seatsLeft: 0,
      note: 'Monsoon, so bring a poncho',
    });
    expect(await store.get('sample-expedition-2030-07-01')).toMatchObject({
      published: false,
      seatsLeft: 8,
      status: 'open',
    });
    expect(await store.get('sample-trek-2030-09-01')).toMatchObject({ endDate: '2030-09-02', published: true });

    const bad = [
      'tripSlug,startDate,seatsTotal,seatsLeft',
      'sample-trek,2030-10-01,10,4',
      'nowhere,2030-10-02,10,4',
      'sample-trek,2030-10-03,10,11',
    ].join('\n');
    const badRows = readDepartureCsv(bad).map(({ line, record }) => ({ line, input: departureInput.parse(record) }));
    const issues = await refusal(store.importDepartures(badRows));
    expect(issues).toEqual([
      expect.stringMatching(/^line 3, tripSlug: no trip has the slug "nowhere"/),
      'line 4, seatsLeft: 11 is more than the 10 seats in total',
    ]);
    expect(await store.count()).toBe(3);

    const exported = departuresToCsv(await store.listAll());
    const again = readDepartureCsv(exported).map(({ line, record }) => ({ line, input: departureInput.parse(record) }));
    expect(await store.importDepartures(again)).toEqual({
      added: [],
      updated: [],
      unchanged: (await store.listAll()).map((d: AdminDeparture) => d.id),
    });
  });

  it('keeps concurrent seat changes consistent', async () => {
    const ids = await Promise.all(
      ['2030-06-01', '2030-06-08', '2030-06-15', '2030-06-22'].map(
        async (startDate) => (await store.add(input({ tripSlug: 'sample-trek', startDate, seatsTotal: '12' }))).id,
      ),
    );
    await Promise.all(
      ids.flatMap((id) => [store.update(id, { seatsLeft: 3 }), store.update(id, { note: 'Two guides' })]),
    );
    for (const d of await store.listAll())
      expect(d).toMatchObject({ seatsLeft: 3, status: 'filling', note: 'Two guides' });
  });
});

describe.each(postgres.routes)('the bound on each statement, on $name', (route) => {
  it("is the server's own: a slow statement is cut at it, and the connection serves the next", async () => {
    const sql = await openServer(await route.newDatabase('statement_bound'), { timeoutMs: 1000 });
    try {
      // Set inside each transaction, where a pooler in transaction mode allows it, and only there.
      expect((await sql.query<{ t: string }>("SELECT current_setting('statement_timeout') AS t")).rows).toEqual([
        { t: '1s' },
      ]);
      const started = Date.now();
      const cut = await sql.query('SELECT pg_sleep(30)').then(
        () => null,
        (error: { code?: string; message: string }) => error,
      );
      // 57014 is PostgreSQL cancelling the statement itself (the client would say "Query read timeout").
      expect(cut).toMatchObject({ code: '57014', message: 'canceling statement due to statement timeout' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      const inTransaction = await sql
        .transaction((tx) => tx.query('SELECT pg_sleep(30)'))
        .then(
          () => null,
          (error: { code?: string }) => error.code,
        );
      expect(inTransaction).toBe('57014');
      expect((await sql.query<{ n: number }>('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
    } finally {
      await sql.close();
    }
  });
});

describe('a pool on an instance that suspends (Vercel Fluid compute)', () => {
  it('is attached: after a read the instance is kept running while the idle connection is open, and only then', async () => {
    const url = await postgres.routes[1]!.newDatabase('suspending');
    const waited: Promise<unknown>[] = [];
    // What Vercel's runtime provides a function: its request context (waitUntil), region and URL.
    const context = Symbol.for('@vercel/request-context');
    const vercel = { VERCEL_URL: 'catalogue.vercel.app', VERCEL_REGION: 'bom1' };
    Object.assign(globalThis, { [context]: { get: () => ({ waitUntil: (p: Promise<unknown>) => waited.push(p) }) } });
    Object.assign(process.env, vercel);
    try {
      const plain = await openServer(url);
      await plain.query('SELECT 1');
      await plain.close();
      expect(waited).toHaveLength(0);
      const sql = await openServer(url, { suspends: true });
      await sql.query('SELECT 1');
      expect(waited.length).toBeGreaterThan(0);
      // Still pending a moment later: the instance waits for the pool's idle timeout before it may suspend.
      const pending = await Promise.race([
        waited.at(-1)!.then(() => false),
        new Promise((r) => setTimeout(r, 200, true)),
      ]);
      expect(pending).toBe(true);
      await sql.close();
    } finally {
      delete (globalThis as Record<symbol, unknown>)[context];
      for (const name of Object.keys(vercel)) delete process.env[name];
    }
  });
});
