/**
 * Live departures for the pages, the Markdown files and the calendars: read from storage on
 * every request, within a bounded time (the source's). When storage is off or failing the answer says so,
 * so each output can tell the reader plainly and point at the enquiry path instead of
 * showing stale or invented dates.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import type { Departure } from '../../domain/schemas/departure.ts';
import { toDeparture, type DepartureSource } from './source.ts';

export type LiveDepartures =
  | { state: 'live'; departures: Departure[] }
  /** The deployment has no operational storage (OPERATIONAL_STORAGE=off). */
  | { state: 'off' }
  /** Storage is configured but could not be read just now. */
  | { state: 'unavailable' };

export interface ReadOptions {
  tripSlug?: string;
  log?: (line: string) => void;
}

/**
 * The departures a page shows. The source bounds its reads in time (on the hosts,
 * service/departures/recent-reads.ts), so a page renders without dates once storage has not
 * answered within that bound.
 */
export async function readLiveDepartures(
  source: DepartureSource | null,
  catalogue: Catalogue,
  options: ReadOptions = {},
): Promise<LiveDepartures> {
  if (!source) return { state: 'off' };
  try {
    const rows = await source.listPublished({ tripSlug: options.tripSlug });
    return { state: 'live', departures: rows.flatMap((row) => toDeparture(row, catalogue) ?? []) };
  } catch (error) {
    (options.log ?? console.error)(
      `[departures] storage read failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    return { state: 'unavailable' };
  }
}

/** The sentence each output uses when it cannot show live dates. */
export function unavailableSentence(live: Exclude<LiveDepartures, { state: 'live' }>): string {
  return live.state === 'off'
    ? 'Live departure dates are not published on this site.'
    : 'Live departure dates cannot be read just now, so none are shown rather than out-of-date ones.';
}
