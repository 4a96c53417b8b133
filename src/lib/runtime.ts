/**
 * Dependencies of the on-demand routes, created once per process from the settings:
 * the catalogue and the departures source (null when OPERATIONAL_STORAGE=off).
 */
import { readSettings, type Settings } from '../../service/config.ts';
import { readLiveDepartures, type LiveDepartures } from '../../service/departures/live.ts';
import type { DepartureSource } from '../../service/departures/source.ts';
import { openDepartureStore } from '../../service/departures/store.ts';
import type { V1Deps } from '../../service/v1/operations.ts';
import { getCatalogue } from './catalogue.ts';

let departures: Promise<DepartureSource | null> | undefined;
let settings: Settings | undefined;

export function runtimeSettings(): Settings {
  settings ??= readSettings();
  return settings;
}

export function getDepartureSource(): Promise<DepartureSource | null> {
  departures ??= (async () => {
    const catalogue = await getCatalogue();
    return openDepartureStore(runtimeSettings(), catalogue);
  })();
  // A failure to even create the store (bad settings) is not remembered: the next request retries.
  departures.catch(() => (departures = undefined));
  return departures;
}

/**
 * Opens storage only when departures are asked for, so trips and peaks never wait for the
 * database (the first open of the embedded one can take seconds).
 */
const lazyDepartures: DepartureSource = {
  ready: async () => {
    const source = await getDepartureSource();
    await source?.ready?.();
  },
  listPublished: async (filter) => {
    const source = await getDepartureSource();
    if (!source) throw new Error('operational storage is off');
    return source.listPublished(filter);
  },
};

export async function getV1Deps(): Promise<V1Deps> {
  const catalogue = await getCatalogue();
  return { catalogue, departures: runtimeSettings().OPERATIONAL_STORAGE === 'off' ? null : lazyDepartures };
}

/** Published upcoming departures for a page, or why there are none to show (never throws). */
export async function getLiveDepartures(tripSlug?: string): Promise<LiveDepartures> {
  const catalogue = await getCatalogue();
  let source: DepartureSource | null;
  try {
    source = await getDepartureSource();
  } catch (error) {
    console.error(`[departures] storage could not be opened: ${error instanceof Error ? error.message : String(error)}`);
    return { state: 'unavailable' };
  }
  return readLiveDepartures(source, catalogue, tripSlug ? { tripSlug } : {});
}
