/**
 * What /v1 and the pages need from operational storage: the published departures, earliest
 * first. The Postgres-backed store (service/departures/store.ts) implements it; a deployment
 * without storage passes `null` and departures answer 503.
 */
import { tripBySlug, type Catalogue } from '../../domain/catalogue/index.ts';
import type { Departure } from '../../domain/schemas/departure.ts';
import type { departureStatuses } from '../../domain/schemas/vocabulary.ts';

export type DepartureStatus = (typeof departureStatuses)[number];

export interface StoredDeparture {
  id: string;
  tripSlug: string;
  startDate: string;
  endDate: string;
  status: DepartureStatus;
  priceInr: number | null;
  seatsTotal: number | null;
  seatsLeft: number | null;
  note: string | null;
}

/** A departure as the operations team sees it: published or hidden. */
export interface AdminDeparture extends StoredDeparture {
  published: boolean;
}

export interface DepartureSource {
  /** Published departures only, ordered by start date then id. Throws when storage cannot be read. */
  listPublished(filter?: { tripSlug?: string | undefined }): Promise<StoredDeparture[]>;
  /**
   * Resolves once storage is open and migrated. Opening is bounded by the connection's own
   * timeouts, not by the read timeout, so a slow first open of the embedded database is waited for.
   */
  ready?(): Promise<unknown>;
}

/** The API's Departure: storage row plus trip name and URL, price falling back to the trip's. */
export function toDeparture(row: StoredDeparture, catalogue: Catalogue): Departure | null {
  const page = tripBySlug(catalogue, row.tripSlug);
  if (!page) return null;
  return {
    id: row.id,
    tripSlug: row.tripSlug,
    tripName: page.trip.name,
    tripUrl: page.trip.url,
    startDate: row.startDate,
    endDate: row.endDate,
    status: row.status,
    priceInr: row.priceInr ?? page.trip.priceInr ?? null,
    seatsTotal: row.seatsTotal,
    seatsLeft: row.seatsLeft,
    ...(row.note ? { note: row.note } : {}),
  };
}
