/**
 * Dependencies of the on-demand routes, created once per process from the settings:
 * the catalogue and the departures source (null when OPERATIONAL_STORAGE=off).
 */
import { readSettings, type Settings } from '../../api/config.ts';
import type { DepartureSource } from '../../api/departures/source.ts';
import { openDepartureStore } from '../../api/departures/store.ts';
import type { V1Deps } from '../../api/v1/operations.ts';
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
  return departures;
}

export async function getV1Deps(): Promise<V1Deps> {
  const [catalogue, source] = await Promise.all([getCatalogue(), getDepartureSource()]);
  return { catalogue, departures: source };
}
