/**
 * Operational storage for the live functions that read departures: opened when departures are
 * first asked for, shared by every function of the process (service/storage/connection.ts).
 */
import { readLiveDepartures, type LiveDepartures } from '../departures/live.ts';
import { recentReads, type RecentReads } from '../departures/recent-reads.ts';
import { openDepartureStore } from '../departures/store.ts';
import type { V1Deps } from '../v1/operations.ts';
import { runtimeCatalogue, runtimeSettings } from './runtime.ts';

let departures: Promise<RecentReads | null> | undefined;

/**
 * The departures store, read at most once a second per filter (RecentReads), or null when
 * OPERATIONAL_STORAGE=off; a failed open is retried next time.
 */
export function departureSource(): Promise<RecentReads | null> {
  departures ??= openDepartureStore(runtimeSettings(), runtimeCatalogue()).then((store) => (store ? recentReads(store, runtimeSettings()) : null));
  departures.catch(() => (departures = undefined));
  return departures;
}

/**
 * Opens storage only when departures are asked for, so catalogue answers never wait for the
 * database. `ready` waits for the first open (the embedded database's can take seconds), which
 * includes a first preparation (migrations, seed); once it is done, preparing again after a
 * failure happens inside a read, within the one bound on reads (RecentReads), never on top of it.
 */
const lazyDepartures = {
  ready: async () => {
    await departureSource();
  },
  listPublished: async (filter?: { tripSlug?: string | undefined }) => {
    const source = await departureSource();
    if (!source) throw new Error('operational storage is off');
    return source.listPublished(filter);
  },
};

export function v1Deps(): V1Deps {
  return { catalogue: runtimeCatalogue(), departures: runtimeSettings().OPERATIONAL_STORAGE === 'off' ? null : lazyDepartures };
}

/** Published upcoming departures for a page, or why there are none to show (never throws). */
export async function liveDepartures(tripSlug?: string): Promise<LiveDepartures> {
  let source: RecentReads | null;
  try {
    source = await departureSource();
  } catch (error) {
    console.error(`[departures] storage could not be opened: ${error instanceof Error ? error.message : String(error)}`);
    return { state: 'unavailable' };
  }
  return readLiveDepartures(source, runtimeCatalogue(), tripSlug ? { tripSlug } : {});
}


/**
 * The id of the read whose rows answer `tripSlug` now (reading when none is fresh), or null when
 * there is no storage or it cannot be read: what a live answer is kept under.
 */
export async function currentReadId(tripSlug?: string): Promise<number | null> {
  try {
    const source = await departureSource();
    return source ? (await source.read(tripSlug ? { tripSlug } : {})).id : null;
  } catch {
    return null;
  }
}
