/**
 * With OPERATIONAL_STORAGE=embedded the Node host hosts the PGlite database from the start, so
 * the departures and enquiries CLIs can reach it over its bridge while the site runs
 * (service/storage/embedded.ts). The host file is removed and the database closed when the
 * server stops.
 */
import type { Server } from 'node:http';
import type { Settings } from '../config.ts';
import { openOperationalStorage } from '../storage/connection.ts';
import { closeHostedDatabases } from '../storage/embedded.ts';

export async function hostEmbeddedDatabase(settings: Settings, server: Server): Promise<void> {
  if (settings.OPERATIONAL_STORAGE !== 'embedded') return;
  try {
    await openOperationalStorage(settings);
  } catch (error) {
    // The site still starts; departures answer 502 and the database is opened again per request.
    console.error(
      `[departures] embedded database not opened yet: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const stop = () => {
    server.close();
    server.closeAllConnections();
    void closeHostedDatabases().finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  server.once('close', () => void closeHostedDatabases());
}
