/**
 * departureStore: departures in operational storage (Postgres). Reads for the API and pages,
 * writes for the operations team's CLI. Hidden departures (published = false) are never
 * returned by `listPublished`.
 */
import type { Settings } from '../config.ts';
import type { Catalogue } from '../catalogue/index.ts';
import { migrate } from './migrations.ts';
import { seedDepartures } from './seed.ts';
import type { DepartureSource, DepartureStatus, StoredDeparture } from './source.ts';
import { openOperationalStorage } from '../storage.ts';
import type { Sql } from './sql.ts';

export interface AdminDeparture extends StoredDeparture {
  published: boolean;
}

const columns = `id, trip_slug, to_char(start_date, 'YYYY-MM-DD') AS start_date, to_char(end_date, 'YYYY-MM-DD') AS end_date,
  status, price_inr, seats_total, seats_left, note, published`;

interface Row {
  id: string;
  trip_slug: string;
  start_date: string;
  end_date: string;
  status: DepartureStatus;
  price_inr: number | null;
  seats_total: number | null;
  seats_left: number | null;
  note: string | null;
  published: boolean;
}

function fromRow(row: Row): AdminDeparture {
  return {
    id: row.id,
    tripSlug: row.trip_slug,
    startDate: row.start_date,
    endDate: row.end_date,
    status: row.status,
    priceInr: row.price_inr,
    seatsTotal: row.seats_total,
    seatsLeft: row.seats_left,
    note: row.note,
    published: row.published,
  };
}

export class DepartureStore implements DepartureSource {
  readonly sql: Sql;
  readonly #prepare: (store: DepartureStore) => Promise<void>;
  #ready: Promise<void> | undefined;

  constructor(sql: Sql, prepare: (store: DepartureStore) => Promise<void> = async () => undefined) {
    this.sql = sql;
    this.#prepare = prepare;
  }

  /** Migrates (and seeds) once; a failure is forgotten so the next call tries again. */
  ready(): Promise<void> {
    this.#ready ??= this.#prepare(this).catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  async listPublished(filter: { tripSlug?: string | undefined } = {}): Promise<StoredDeparture[]> {
    await this.ready();
    const { rows } = await this.sql.query<Row>(
      `SELECT ${columns} FROM departures WHERE published AND ($1::text IS NULL OR trip_slug = $1) ORDER BY start_date, id`,
      [filter.tripSlug ?? null],
    );
    return rows.map((row) => {
      const { published: _p, ...departure } = fromRow(row);
      return departure;
    });
  }

  async listAll(filter: { tripSlug?: string | undefined } = {}): Promise<AdminDeparture[]> {
    await this.ready();
    const { rows } = await this.sql.query<Row>(
      `SELECT ${columns} FROM departures WHERE ($1::text IS NULL OR trip_slug = $1) ORDER BY start_date, id`,
      [filter.tripSlug ?? null],
    );
    return rows.map(fromRow);
  }

  async get(id: string): Promise<AdminDeparture | null> {
    const { rows } = await this.sql.query<Row>(`SELECT ${columns} FROM departures WHERE id = $1`, [id]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** Inserts or replaces a departure by id. */
  async upsert(d: AdminDeparture): Promise<void> {
    await this.sql.query(
      `INSERT INTO departures (id, trip_slug, start_date, end_date, status, price_inr, seats_total, seats_left, note, published)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (id) DO UPDATE SET trip_slug = EXCLUDED.trip_slug, start_date = EXCLUDED.start_date,
         end_date = EXCLUDED.end_date, status = EXCLUDED.status, price_inr = EXCLUDED.price_inr,
         seats_total = EXCLUDED.seats_total, seats_left = EXCLUDED.seats_left, note = EXCLUDED.note,
         published = EXCLUDED.published, updated_at = now()`,
      [d.id, d.tripSlug, d.startDate, d.endDate, d.status, d.priceInr, d.seatsTotal, d.seatsLeft, d.note, d.published],
    );
  }

  async count(): Promise<number> {
    const { rows } = await this.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM departures');
    return rows[0]?.n ?? 0;
  }

  close(): Promise<void> {
    return this.sql.close();
  }
}

/** Opens storage as the settings say, migrates it, and seeds an empty embedded store. */
export async function openDepartureStore(settings: Settings, catalogue: Catalogue, today = new Date()): Promise<DepartureStore | null> {
  // Shared with the enquiry store: one connection per process (PGlite must never be opened twice).
  const sql = await openOperationalStorage(settings);
  if (!sql) return null;
  const seedEmpty = settings.OPERATIONAL_STORAGE === 'embedded';
  const store = new DepartureStore(sql, async (self) => {
    await migrate(sql);
    if (seedEmpty && (await self.count()) === 0) {
      for (const departure of seedDepartures(catalogue, today)) await self.upsert(departure);
    }
  });
  // Prepare now so the first visitor does not wait; a server that is down is retried per request.
  await store.ready().catch((error: unknown) => {
    console.error(`[departures] storage not ready yet: ${error instanceof Error ? error.message : String(error)}`);
  });
  return store;
}
