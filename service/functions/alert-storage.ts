/**
 * Alerts and the change log on an instance's operational storage, for the functions that use them
 * (alerts, and MCP's resource of a search's changes): opened at the first request that needs them,
 * once per instance and again after a failure, and loaded with that request, so a function's cold
 * start and its other paths carry neither the store nor the database client.
 */
import type { DepartureChangeLog } from '../departures/changes.ts';
import type { AlertStore } from '../alerts/store.ts';
import { kept, type LiveInstance } from './runtime.ts';

export interface AlertStorage {
  store: AlertStore;
  changes: DepartureChangeLog;
}

/** The instance's alert store and change log, or null when OPERATIONAL_STORAGE=off. */
export function alertStorage(instance: LiveInstance): () => Promise<AlertStorage | null> {
  return kept(async () => {
    const settings = instance.settings();
    if (settings.OPERATIONAL_STORAGE === 'off') return null;
    const [{ openOperationalStorage }, { AlertStore, DepartureChangeLog }] = await Promise.all([
      import('../storage/connection.ts'),
      import('../alerts/store.ts'),
    ]);
    const sql = await openOperationalStorage(settings);
    if (!sql) return null;
    const store = new AlertStore(sql);
    // Migrated first: the change log's table is the schema's too.
    await store.ready();
    return { store, changes: new DepartureChangeLog(sql) };
  });
}
