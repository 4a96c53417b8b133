/**
 * How a departure maps to a row of the `departures` table (migration 1): the columns read,
 * the upsert written. Dates are read as text so no time zone can shift them.
 */
import type { AdminDeparture, DepartureStatus } from './source.ts';

export const columns = `id, trip_slug, to_char(start_date, 'YYYY-MM-DD') AS start_date, to_char(end_date, 'YYYY-MM-DD') AS end_date,
  status, price_inr, seats_total, seats_left, note, published`;

export interface Row {
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

export function fromRow(row: Row): AdminDeparture {
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

export const upsertStatement = `INSERT INTO departures (id, trip_slug, start_date, end_date, status, price_inr, seats_total, seats_left, note, published)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
  ON CONFLICT (id) DO UPDATE SET trip_slug = EXCLUDED.trip_slug, start_date = EXCLUDED.start_date,
    end_date = EXCLUDED.end_date, status = EXCLUDED.status, price_inr = EXCLUDED.price_inr,
    seats_total = EXCLUDED.seats_total, seats_left = EXCLUDED.seats_left, note = EXCLUDED.note,
    published = EXCLUDED.published, updated_at = now()`;

export function writeParams(d: AdminDeparture): unknown[] {
  return [
    d.id,
    d.tripSlug,
    d.startDate,
    d.endDate,
    d.status,
    d.priceInr,
    d.seatsTotal,
    d.seatsLeft,
    d.note,
    d.published,
  ];
}
