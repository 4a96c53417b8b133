/**
 * What changed, and when: every write of a departure (the operator's tool, a CSV import, the
 * seed, any store write) records the change it made to a published departure in
 * `departure_changes` (migration 60), in the same transaction as the write, so a change is
 * recorded exactly when it is made. The alert job and the feeds read it (service/alerts/).
 *
 * A change is one row per departure written, with the kinds it has and the departure before and
 * after (as storage holds it). Kinds:
 *
 *   new_date        a departure the public can see for the first time: added, or published
 *   seats_opened    more seats left than before (0 → 3, 2 → 5); whether that is enough for a
 *                   watched party size is read from before and after (alerts/matching.ts)
 *   price_lowered   a lower price per person (the departure's own, else the trip's)
 *   status_changed  another status, other than cancelled
 *   cancelled       the status became cancelled
 *
 * Writes to hidden departures record nothing (nobody outside sees them), nor do hides.
 */
import type { Sql } from '../storage/sql.ts';
import type { AdminDeparture, StoredDeparture } from './source.ts';

export type ChangeKind = 'new_date' | 'seats_opened' | 'price_lowered' | 'status_changed' | 'cancelled';

export interface DepartureChange {
  /** Increasing with every change recorded: a feed entry's id, and what a watch has seen. */
  id: number;
  departureId: string;
  tripSlug: string;
  kinds: ChangeKind[];
  /** The departure before the write, null for a new date. */
  before: StoredDeparture | null;
  after: StoredDeparture;
  recordedAt: Date;
}

/** A departure as the public saw it: published, without the flag. */
function shown(d: AdminDeparture): StoredDeparture {
  const { published: _published, ...departure } = d;
  return departure;
}

/** The price per person a departure is offered at: its own, else its trip's. */
export function effectivePrice(d: Pick<StoredDeparture, 'priceInr'>, tripPrice: number | null): number | null {
  return d.priceInr ?? tripPrice;
}

/** The kinds of change a write made, as the public sees it (none for a hidden departure). */
function changeKindsOf(before: AdminDeparture | null, after: AdminDeparture, tripPrice: number | null): ChangeKind[] {
  if (!after.published) return [];
  if (!before?.published) return ['new_date'];
  const kinds: ChangeKind[] = [];
  if (before.seatsLeft != null && after.seatsLeft != null && after.seatsLeft > before.seatsLeft)
    kinds.push('seats_opened');
  const was = effectivePrice(before, tripPrice);
  const now = effectivePrice(after, tripPrice);
  if (was != null && now != null && now < was) kinds.push('price_lowered');
  if (after.status !== before.status) kinds.push(after.status === 'cancelled' ? 'cancelled' : 'status_changed');
  return kinds;
}

/** One write: the departure before (null when new) and after. */
export interface DepartureWrite {
  before: AdminDeparture | null;
  after: AdminDeparture;
}

/** Records the changes `writes` made, inside the transaction that made them. */
export async function recordChanges(
  tx: Pick<Sql, 'query'>,
  writes: readonly DepartureWrite[],
  tripPrice: (slug: string) => number | null,
): Promise<void> {
  for (const { before, after } of writes) {
    const kinds = changeKindsOf(before, after, tripPrice(after.tripSlug));
    if (kinds.length === 0) continue;
    await tx.query(
      `INSERT INTO departure_changes (departure_id, trip_slug, kinds, before, after)
       VALUES ($1, $2, $3::text[], $4::jsonb, $5::jsonb)`,
      [after.id, after.tripSlug, kinds, before ? JSON.stringify(shown(before)) : null, JSON.stringify(shown(after))],
    );
  }
}

interface ChangeRow {
  id: string | number;
  departure_id: string;
  trip_slug: string;
  kinds: ChangeKind[] | string;
  before: StoredDeparture | string | null;
  after: StoredDeparture | string;
  recorded_at: Date | string;
}

const json = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/** PostgreSQL's text form of an array, `{a,b}`, as node-postgres gives a text[] it has no parser for. */
const kindList = (value: ChangeKind[] | string): ChangeKind[] =>
  Array.isArray(value)
    ? value
    : (value
        .replace(/^\{|\}$/g, '')
        .split(',')
        .filter(Boolean) as ChangeKind[]);

function fromRow(row: ChangeRow): DepartureChange {
  return {
    id: Number(row.id),
    departureId: row.departure_id,
    tripSlug: row.trip_slug,
    kinds: kindList(row.kinds),
    before: row.before === null ? null : json(row.before),
    after: json(row.after),
    recordedAt: new Date(row.recorded_at),
  };
}

const changeColumns = 'id, departure_id, trip_slug, kinds, before, after, recorded_at';

/** The change log as its readers ask it. */
export class DepartureChangeLog {
  readonly #sql: Pick<Sql, 'query'>;

  constructor(sql: Pick<Sql, 'query'>) {
    this.#sql = sql;
  }

  /**
   * The latest changes to departures still on the public lists on `today` (YYYY-MM-DD, in
   * India: starting then or later), newest first, at most `limit` of them (of one trip, when
   * given): what a feed chooses its entries from.
   */
  async latest(options: { today: string; limit: number; tripSlug?: string | undefined }): Promise<DepartureChange[]> {
    const { rows } = await this.#sql.query<ChangeRow>(
      `SELECT ${changeColumns} FROM departure_changes
       WHERE (after->>'startDate') >= $1 AND ($3::text IS NULL OR trip_slug = $3)
       ORDER BY id DESC LIMIT $2`,
      [options.today, options.limit, options.tripSlug ?? null],
    );
    return rows.map(fromRow);
  }

  /** Every change recorded after change `id`, oldest first: what a watch may not have seen. */
  async after(id: number): Promise<DepartureChange[]> {
    const { rows } = await this.#sql.query<ChangeRow>(
      `SELECT ${changeColumns} FROM departure_changes WHERE id > $1 ORDER BY id`,
      [id],
    );
    return rows.map(fromRow);
  }

  /** The id of the last change recorded, 0 when none is. */
  async lastId(): Promise<number> {
    const { rows } = await this.#sql.query<{ id: string | number | null }>(
      'SELECT max(id) AS id FROM departure_changes',
    );
    return Number(rows[0]?.id ?? 0);
  }
}
