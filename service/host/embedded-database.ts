/**
 * With OPERATIONAL_STORAGE=embedded the Node host hosts the PGlite database from the start, so
 * the departures and enquiries CLIs can reach it over its bridge while the site runs
 * (service/storage/embedded.ts). When it cannot be opened (a full disk, above all) the site is
 * served all the same: the log says why in plain words, and the host tries again by itself,
 * sooner at first, until it opens; requests that need it try too. The host file is removed and
 * the database closed when the server stops.
 */
import type { Server } from 'node:http';
import path from 'node:path';
import type { Settings } from '../config.ts';
import { openOperationalStorage } from '../storage/connection.ts';
import { DiskFullError, failureText } from '../storage/disk-space.ts';
import { closeHostedDatabases } from '../storage/embedded.ts';

/** The waits between attempts to open the database, the last repeated. */
const reopenDelaysMs = [1000, 2000, 5000, 10_000, 30_000];

/** What the log says when the database cannot be opened. */
function cannotOpen(error: unknown, delays: readonly number[]): string {
  const again = `The server tries again by itself (every ${Math.round(delays.at(-1)! / 1000)} s at most) and says so here when it opens; no restart is needed.`;
  if (error instanceof DiskFullError)
    return (
      `[storage] The embedded database cannot be opened: ${error.message}. The pages, trips and peaks are ` +
      `served; departures answer 502 and enquiries are refused until there is room. Free some space on that disk. ${again}`
    );
  return `[storage] The embedded database cannot be opened yet: ${failureText(error)}. Departures answer 502 meanwhile. ${again}`;
}

export async function hostEmbeddedDatabase(
  settings: Settings,
  server: Server,
  delays: readonly number[] = reopenDelaysMs,
): Promise<void> {
  if (settings.OPERATIONAL_STORAGE !== 'embedded') return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let said = '';
  const attempt = async (failures: number): Promise<void> => {
    try {
      await openOperationalStorage(settings);
      if (failures > 0)
        console.log(
          `[storage] The embedded database in ${path.resolve(settings.DATA_DIR)} is open: departures and enquiries are answered again.`,
        );
    } catch (error) {
      if (stopped) return;
      const line = cannotOpen(error, delays);
      // Said once, and again only when the reason changes.
      if (line !== said) console.error(line);
      said = line;
      timer = setTimeout(() => void attempt(failures + 1), delays[Math.min(failures, delays.length - 1)]);
      timer.unref();
    }
  };
  server.once('close', () => {
    stopped = true;
    clearTimeout(timer);
    void closeHostedDatabases();
  });
  await attempt(0);
}
