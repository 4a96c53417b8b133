/**
 * A trip's published departures for its page (the offers in its JSON-LD and the fallback list),
 * read live. A page must never fail because storage is slow or off: null means "not available now".
 */
import { toDeparture } from '../../api/departures/source.ts';
import type { Departure } from '../schemas/departure.ts';
import { getCatalogue } from '../lib/catalogue.ts';
import { getDepartureSource } from '../lib/runtime.ts';

/** A page waits at most this long for storage before rendering without live dates. */
const pageStorageTimeoutMs = 1500;

export async function tripDepartures(tripSlug: string): Promise<Departure[] | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const [catalogue, source] = await Promise.all([getCatalogue(), getDepartureSource()]);
    if (!source) return null;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`storage did not answer within ${pageStorageTimeoutMs} ms`)), pageStorageTimeoutMs);
    });
    const rows = await Promise.race([source.listPublished({ tripSlug }), timeout]);
    return rows.flatMap((row) => toDeparture(row, catalogue) ?? []);
  } catch (error) {
    console.error(`[trip page] departures for ${tripSlug} unavailable: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  } finally {
    clearTimeout(timer);
  }
}
