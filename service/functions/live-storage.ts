/**
 * Operational storage for the live functions that read departures: opened when departures are
 * first asked for, shared by every function of the process (service/storage.ts).
 */
import { readLiveDepartures, type LiveDepartures } from '../departures/live.ts';
import type { DepartureSource } from '../departures/source.ts';
import { openDepartureStore } from '../departures/store.ts';
import type { V1Deps } from '../v1/operations.ts';
import { runtimeCatalogue, runtimeSettings } from './runtime.ts';

let departures: Promise<DepartureSource | null> | undefined;

/** The departures store, or null when OPERATIONAL_STORAGE=off; a failed open is retried next time. */
export function departureSource(): Promise<DepartureSource | null> {
  departures ??= openDepartureStore(runtimeSettings(), runtimeCatalogue());
  departures.catch(() => (departures = undefined));
  return departures;
}

/**
 * Opens storage only when departures are asked for, so catalogue answers never wait for the
 * database (the first open of the embedded one can take seconds).
 */
const lazyDepartures: DepartureSource = {
  ready: async () => {
    const source = await departureSource();
    await source?.ready?.();
  },
  listPublished: async (filter) => {
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
  let source: DepartureSource | null;
  try {
    source = await departureSource();
  } catch (error) {
    console.error(`[departures] storage could not be opened: ${error instanceof Error ? error.message : String(error)}`);
    return { state: 'unavailable' };
  }
  return readLiveDepartures(source, runtimeCatalogue(), tripSlug ? { tripSlug } : {});
}

