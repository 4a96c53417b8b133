/**
 * Live departures for the pages, the Markdown files and the calendars: read from storage on
 * every request, within a bounded time. When storage is off or failing the answer says so,
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

/**
 * Anything showing departures may be cached for at most 60 seconds (the contract's cap): a
 * browser keeps it 30 s; a shared cache (Vercel's CDN, the Node host's edge cache) serves it for
 * a second, then may serve it stale for the rest of the minute while it asks again, so a busy
 * page is refreshed every second and a quiet one is never more than a minute old.
 */
export const liveCacheControl = 'public, max-age=30, s-maxage=1, stale-while-revalidate=59';

/** A failure answer must not be cached as long as a good one: storage usually comes back soon. */
export const unavailableCacheControl = 'no-store';

export function cacheControlFor(live: LiveDepartures): string {
  return live.state === 'unavailable' ? unavailableCacheControl : liveCacheControl;
}

export interface ReadOptions {
  tripSlug?: string;
  /** Upper bound on the storage read; the page renders without dates after it. */
  timeoutMs?: number;
  log?: (line: string) => void;
}

export async function readLiveDepartures(source: DepartureSource | null, catalogue: Catalogue, options: ReadOptions = {}): Promise<LiveDepartures> {
  if (!source) return { state: 'off' };
  const timeoutMs = options.timeoutMs ?? 3000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`storage did not answer within ${timeoutMs} ms`)), timeoutMs);
    });
    const rows = await Promise.race([source.listPublished({ tripSlug: options.tripSlug }), timeout]);
    return { state: 'live', departures: rows.flatMap((row) => toDeparture(row, catalogue) ?? []) };
  } catch (error) {
    (options.log ?? console.error)(`[departures] storage read failed: ${error instanceof Error ? error.message : String(error)}`);
    return { state: 'unavailable' };
  } finally {
    clearTimeout(timer);
  }
}

/** The sentence each output uses when it cannot show live dates. */
export function unavailableSentence(live: Exclude<LiveDepartures, { state: 'live' }>): string {
  return live.state === 'off'
    ? 'Live departure dates are not published on this site.'
    : 'Live departure dates cannot be read just now, so none are shown rather than out-of-date ones.';
}
