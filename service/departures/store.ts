/**
 * departureStore: departures in operational storage (Postgres). Reads for the API and pages,
 * writes for the operations team's CLI. Hidden departures (published = false) are never
 * returned by `listPublished`; every write passes the rules in validation.ts first.
 */
import type { Settings } from '../config.ts';
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { openOperationalStorage } from '../storage/connection.ts';
import { recordChanges, type DepartureWrite } from './changes.ts';
import type { DepartureChanges, DepartureInput } from './input.ts';
import { migrate } from '../storage/migrations/index.ts';
import { columns, fromRow, upsertStatement, writeParams, type Row } from './rows.ts';
import { seedDepartures } from './seed.ts';
import type { AdminDeparture, DepartureSource, StoredDeparture } from './source.ts';
import type { Sql } from '../storage/sql.ts';
import { knownTrip, knownTrips, type KnownTrip } from './trips.ts';
import { todayInIndia } from './today.ts';
import {
  addDays,
  checkDeparture,
  DepartureRuleError,
  seatsForStatus,
  settleStatus,
  statusForSeats,
  type Issue,
} from './validation.ts';

function sameDeparture(a: AdminDeparture, b: AdminDeparture): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export { todayInIndia };

/**
 * Writes departures and records what each write changed (changes.ts), in the caller's
 * transaction: every write of the store, the seed included, goes through here.
 */
async function writeDepartures(
  tx: Pick<Sql, 'query'>,
  writes: readonly DepartureWrite[],
  trips: readonly KnownTrip[],
): Promise<void> {
  for (const { after } of writes) await tx.query(upsertStatement, writeParams(after));
  await recordChanges(tx, writes, (slug) => knownTrip(trips, slug)?.priceInr ?? null);
}

/** The departure id a new departure gets: trip and start date, with a counter when taken. */
function newId(tripSlug: string, startDate: string, taken: Set<string>): string {
  const base = `${tripSlug}-${startDate}`;
  let id = base;
  for (let n = 2; taken.has(id); n += 1) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

export interface DepartureStoreOptions {
  /** The trips writes are checked against; a store without them is read-only. */
  trips?: readonly KnownTrip[];
  /** Runs once after the migrations, e.g. seeding an empty embedded store. */
  prepare?: (store: DepartureStore, sql: Sql) => Promise<void>;
}

export interface ImportResult {
  added: string[];
  updated: string[];
  unchanged: string[];
}

export class DepartureStore implements DepartureSource {
  readonly #open: () => Promise<Sql>;
  readonly #trips: readonly KnownTrip[] | undefined;
  readonly #prepare: DepartureStoreOptions['prepare'];
  #sql: Sql | undefined;
  #ready: Promise<Sql> | undefined;

  constructor(open: () => Promise<Sql>, options: DepartureStoreOptions = {}) {
    this.#open = open;
    this.#trips = options.trips;
    this.#prepare = options.prepare;
  }

  /** Connects, migrates and prepares once; a failure is forgotten so the next call tries again. */
  ready(): Promise<Sql> {
    this.#ready ??= (async () => {
      this.#sql ??= await this.#open();
      await migrate(this.#sql);
      await this.#prepare?.(this, this.#sql);
      return this.#sql;
    })().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  #rules(): readonly KnownTrip[] {
    if (!this.#trips)
      throw new Error('this departure store was opened without the trip list, so it cannot check writes');
    return this.#trips;
  }

  #check(departures: { departure: AdminDeparture; label?: string }[]): void {
    const trips = this.#rules();
    const issues: Issue[] = departures.flatMap(({ departure, label }) =>
      checkDeparture(departure, trips).map((issue) =>
        label ? { ...issue, field: `${label}, ${issue.field}` } : issue,
      ),
    );
    if (issues.length > 0) throw new DepartureRuleError(issues);
  }

  /** Upcoming published departures (starting `from`, default today in India), earliest first. */
  async listPublished(
    filter: { tripSlug?: string | undefined; from?: string | undefined } = {},
  ): Promise<StoredDeparture[]> {
    const sql = await this.ready();
    const { rows } = await sql.query<Row>(
      `SELECT ${columns} FROM departures
       WHERE published AND start_date >= $2::date AND ($1::text IS NULL OR trip_slug = $1)
       ORDER BY start_date, id`,
      [filter.tripSlug ?? null, filter.from ?? todayInIndia()],
    );
    return rows.map((row) => {
      const { published: _published, ...departure } = fromRow(row);
      return departure;
    });
  }

  /** Every departure, hidden and past ones included (the operations view). */
  async listAll(filter: { tripSlug?: string | undefined } = {}): Promise<AdminDeparture[]> {
    const sql = await this.ready();
    const { rows } = await sql.query<Row>(
      `SELECT ${columns} FROM departures WHERE ($1::text IS NULL OR trip_slug = $1) ORDER BY start_date, id`,
      [filter.tripSlug ?? null],
    );
    return rows.map(fromRow);
  }

  async get(id: string): Promise<AdminDeparture | null> {
    const sql = await this.ready();
    const { rows } = await sql.query<Row>(`SELECT ${columns} FROM departures WHERE id = $1`, [id]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async count(): Promise<number> {
    const sql = await this.ready();
    const { rows } = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM departures');
    return rows[0]?.n ?? 0;
  }

  /** Inserts or replaces departures by id, after checking every one. */
  async upsert(...departures: AdminDeparture[]): Promise<void> {
    this.#check(departures.map((departure) => ({ departure })));
    const sql = await this.ready();
    await sql.transaction(async (tx) => {
      const { rows } = await tx.query<Row>(`SELECT ${columns} FROM departures WHERE id = ANY($1::text[]) FOR UPDATE`, [
        departures.map((d) => d.id),
      ]);
      const before = new Map(rows.map((r) => [r.id, fromRow(r)]));
      const writes = departures.map((after) => ({ before: before.get(after.id) ?? null, after }));
      await writeDepartures(tx, writes, this.#rules());
    });
  }

  /** Completes a new departure: id, end date from the trip's length, status from the seats. */
  #complete(input: DepartureInput, taken: Set<string>, previous: AdminDeparture | null): AdminDeparture {
    const trip = knownTrip(this.#rules(), input.tripSlug);
    let endDate = input.endDate ?? previous?.endDate ?? null;
    if (endDate === null) {
      // An unknown trip is refused by checkDeparture, which names the known ones.
      if (trip && !trip.durationDays)
        throw new DepartureRuleError([
          { field: 'endDate', message: `is required, because trip "${trip.slug}" has no fixed length` },
        ]);
      endDate = trip?.durationDays ? addDays(input.startDate, trip.durationDays - 1) : input.startDate;
    }
    const seatsTotal = input.seatsTotal !== undefined ? input.seatsTotal : (previous?.seatsTotal ?? null);
    const seatsLeft =
      input.seatsLeft !== undefined ? input.seatsLeft : seatsForStatus(input.status, previous?.seatsLeft ?? seatsTotal);
    const explicit = input.status !== undefined && input.status !== null;
    const seatsChanged = !previous || previous.seatsLeft !== seatsLeft || previous.seatsTotal !== seatsTotal;
    const status = explicit
      ? input.status!
      : previous
        ? settleStatus(previous.status, seatsLeft, { explicit, seatsChanged })
        : statusForSeats(seatsLeft);
    return {
      id: input.id ?? previous?.id ?? newId(input.tripSlug, input.startDate, taken),
      tripSlug: input.tripSlug,
      startDate: input.startDate,
      endDate,
      status,
      priceInr: input.priceInr !== undefined ? input.priceInr : (previous?.priceInr ?? null),
      seatsTotal,
      seatsLeft,
      note: input.note !== undefined ? input.note : (previous?.note ?? null),
      published: input.published ?? previous?.published ?? true,
    };
  }

  async #ids(sql: Pick<Sql, 'query'>): Promise<Set<string>> {
    const { rows } = await sql.query<{ id: string }>('SELECT id FROM departures');
    return new Set(rows.map((r) => r.id));
  }

  /** Adds a new departure; an id that is already taken is refused rather than overwritten. */
  async add(input: DepartureInput): Promise<AdminDeparture> {
    const sql = await this.ready();
    return sql.transaction(async (tx) => {
      const taken = await this.#ids(tx);
      if (input.id && taken.has(input.id)) {
        throw new DepartureRuleError([
          { field: 'id', message: `a departure "${input.id}" already exists; change it with update` },
        ]);
      }
      const departure = this.#complete(input, taken, null);
      this.#check([{ departure }]);
      await writeDepartures(tx, [{ before: null, after: departure }], this.#rules());
      return departure;
    });
  }

  /** Changes some fields of one departure; the status follows the seats unless it is given. */
  async update(id: string, changes: DepartureChanges): Promise<AdminDeparture> {
    const sql = await this.ready();
    return sql.transaction(async (tx) => {
      const { rows } = await tx.query<Row>(`SELECT ${columns} FROM departures WHERE id = $1 FOR UPDATE`, [id]);
      if (!rows[0])
        throw new DepartureRuleError([
          { field: 'id', message: `no departure has the id "${id}"; list them with the list command` },
        ]);
      const before = fromRow(rows[0]);
      const merged: AdminDeparture = { ...before };
      for (const [key, value] of Object.entries(changes) as [keyof DepartureChanges, unknown][]) {
        if (value !== undefined) (merged as unknown as Record<string, unknown>)[key] = value;
      }
      if (changes.seatsLeft === undefined) merged.seatsLeft = seatsForStatus(changes.status, merged.seatsLeft);
      merged.status = settleStatus(merged.status, merged.seatsLeft, {
        explicit: changes.status !== undefined,
        seatsChanged: merged.seatsLeft !== before.seatsLeft || merged.seatsTotal !== before.seatsTotal,
      });
      this.#check([{ departure: merged }]);
      if (!sameDeparture(before, merged)) await writeDepartures(tx, [{ before, after: merged }], this.#rules());
      return merged;
    });
  }

  /** Publishes or hides departures; hidden ones never appear in any public output. */
  async setPublished(ids: readonly string[], published: boolean): Promise<AdminDeparture[]> {
    const sql = await this.ready();
    return sql.transaction(async (tx) => {
      const { rows } = await tx.query<Row>(`SELECT ${columns} FROM departures WHERE id = ANY($1::text[]) FOR UPDATE`, [
        ids,
      ]);
      const found = new Map(rows.map((r) => [r.id, fromRow(r)]));
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length > 0)
        throw new DepartureRuleError(
          missing.map((id) => ({ field: 'id', message: `no departure has the id "${id}"` })),
        );
      const changed = ids.map((id) => ({ ...found.get(id)!, published }));
      // Publishing checks the departure again: its trip may have left the catalogue since.
      if (published) this.#check(changed.map((departure) => ({ departure, label: departure.id })));
      await tx.query(
        'UPDATE departures SET published = $2, updated_at = now() WHERE id = ANY($1::text[]) AND published <> $2',
        [ids, published],
      );
      await recordChanges(
        tx,
        changed.map((after) => ({ before: found.get(after.id)!, after })),
        (slug) => knownTrip(this.#trips ?? [], slug)?.priceInr ?? null,
      );
      return changed;
    });
  }

  /**
   * Imports rows (a CSV file): a row with a known id replaces that departure, any other row
   * is added. All rows are checked first; one bad row imports nothing.
   */
  async importDepartures(rows: readonly { line: number; input: DepartureInput }[]): Promise<ImportResult> {
    const sql = await this.ready();
    return sql.transaction(async (tx) => {
      const { rows: existingRows } = await tx.query<Row>(`SELECT ${columns} FROM departures FOR UPDATE`);
      const existing = new Map(existingRows.map((r) => [r.id, fromRow(r)]));
      const taken = new Set(existing.keys());
      const seen = new Map<string, number>();
      const issues: Issue[] = [];
      const planned: { departure: AdminDeparture; before: AdminDeparture | null; label: string }[] = [];
      for (const { line, input } of rows) {
        const label = `line ${line}`;
        if (input.id) {
          const first = seen.get(input.id);
          if (first !== undefined)
            issues.push({ field: `${label}, id`, message: `"${input.id}" is also on line ${first}` });
          seen.set(input.id, line);
        }
        const before = input.id ? (existing.get(input.id) ?? null) : null;
        try {
          planned.push({
            departure: this.#complete({ ...input, status: input.status ?? undefined }, taken, before),
            before,
            label,
          });
        } catch (error) {
          if (!(error instanceof DepartureRuleError)) throw error;
          issues.push(...error.issues.map((i) => ({ ...i, field: `${label}, ${i.field}` })));
        }
      }
      for (const { departure, label } of planned)
        issues.push(...checkDeparture(departure, this.#rules()).map((i) => ({ ...i, field: `${label}, ${i.field}` })));
      if (issues.length > 0) throw new DepartureRuleError(issues);
      const result: ImportResult = { added: [], updated: [], unchanged: [] };
      const writes: DepartureWrite[] = [];
      for (const { departure, before } of planned) {
        if (before && sameDeparture(before, departure)) {
          result.unchanged.push(departure.id);
          continue;
        }
        writes.push({ before, after: departure });
        (before ? result.updated : result.added).push(departure.id);
      }
      await writeDepartures(tx, writes, this.#rules());
      return result;
    });
  }

  async close(): Promise<void> {
    const sql = this.#sql;
    this.#sql = undefined;
    this.#ready = undefined;
    await sql?.close();
  }
}

/**
 * The departure store the settings ask for, or null when OPERATIONAL_STORAGE=off. It connects
 * lazily and retries on the next call when storage is down. A new embedded store is seeded
 * once with starter departures, so a fresh checkout shows a realistic board.
 */
export function createDepartureStore(
  settings: Settings,
  trips: readonly KnownTrip[],
  seed?: () => AdminDeparture[],
): DepartureStore | null {
  if (settings.OPERATIONAL_STORAGE === 'off') return null;
  return new DepartureStore(
    async () => {
      const sql = await openOperationalStorage(settings);
      if (!sql) throw new Error('operational storage is off');
      return sql;
    },
    {
      trips,
      prepare: async (_store, sql) => {
        if (settings.OPERATIONAL_STORAGE !== 'embedded' || !seed) return;
        const { rows } = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM departures');
        if ((rows[0]?.n ?? 0) > 0) return;
        const departures = seed();
        const issues = departures.flatMap((d) =>
          checkDeparture(d, trips).map((i) => ({ ...i, field: `${d.id}, ${i.field}` })),
        );
        if (issues.length > 0) throw new DepartureRuleError(issues);
        await sql.transaction((tx) =>
          writeDepartures(
            tx,
            departures.map((after) => ({ before: null, after })),
            trips,
          ),
        );
      },
    },
  );
}

/** The store the site uses: trips from the catalogue, seeded from it when new. */
export async function openDepartureStore(
  settings: Settings,
  catalogue: Catalogue,
  today = new Date(),
): Promise<DepartureStore | null> {
  const store = createDepartureStore(settings, knownTrips(catalogue), () => seedDepartures(catalogue, today));
  // Prepare now so the first visitor does not wait; storage that is down is retried per request.
  await store?.ready().catch((error: unknown) => {
    console.error(`[departures] storage not ready yet: ${error instanceof Error ? error.message : String(error)}`);
  });
  return store;
}
