/**
 * Operational storage, opened once per process and shared by every store that uses it
 * (departures, enquiries, agent registrations). The embedded PGlite database is single-process and must never be
 * opened twice: each caller gets a handle on one shared connection, and the connection closes
 * when the last handle does.
 */
import path from 'node:path';
import type { Settings } from '../config.ts';
import { prepareDataDir } from '../data-dir.ts';
import { openEmbedded } from './embedded.ts';
import { openServer } from './postgres.ts';
import type { Sql } from './sql.ts';

interface Shared {
  sql: Promise<Sql>;
  handles: number;
}

/** The process's connections, by the database they reach (storageKey). */
const registry = new Map<string, Shared>();

/** Set when the process closes storage for good (it is stopping): nothing opens it again. */
let closedForGood = false;

/** Which database the settings point at; equal keys mean the same database. */
function storageKey(settings: Settings): string | null {
  switch (settings.OPERATIONAL_STORAGE) {
    case 'off':
      return null;
    case 'postgres':
      return `postgres:${settings.DATABASE_URL ?? ''}`;
    case 'embedded':
      return `embedded:${path.resolve(settings.DATA_DIR, 'pglite')}`;
  }
}

/**
 * The settings the operator's tools (npm run departures, npm run enquiries) open storage with:
 * the database's direct address when one is given beside a pooled DATABASE_URL, so an import
 * or a listing holds one connection of its own, not one of the pool's that the site's requests
 * share; the same settings otherwise.
 */
export function directAddressSettings(settings: Settings): Settings {
  if (settings.OPERATIONAL_STORAGE !== 'postgres' || !settings.directDatabaseUrl) return settings;
  return { ...settings, DATABASE_URL: settings.directDatabaseUrl };
}

/**
 * A handle on the process's connection to operational storage, or null when
 * OPERATIONAL_STORAGE=off. Closing the handle releases it; the connection itself closes with
 * the last handle.
 */
export async function openOperationalStorage(settings: Settings): Promise<Sql | null> {
  const key = storageKey(settings);
  if (key === null) return null;
  if (closedForGood) throw new Error('operational storage is closed: the server is stopping');
  let shared = registry.get(key);
  if (!shared) {
    // PGlite creates its files with the process umask: DATA_DIR must be prepared first, whoever opens it.
    if (settings.OPERATIONAL_STORAGE === 'embedded') prepareDataDir(settings);
    const opening: Shared = {
      sql:
        settings.OPERATIONAL_STORAGE === 'postgres'
          ? openServer(settings.DATABASE_URL ?? '', {
              timeoutMs: settings.STORAGE_TIMEOUT_MS,
              directUrl: settings.directDatabaseUrl,
              // VERCEL=1 is set by the platform in every function: its instances suspend between requests.
              suspends: settings.VERCEL === '1',
            })
          : openEmbedded(path.resolve(settings.DATA_DIR, 'pglite')),
      handles: 0,
    };
    // A failed open is forgotten, so the next caller tries again.
    opening.sql.catch(() => {
      if (registry.get(key) === opening) registry.delete(key);
    });
    registry.set(key, opening);
    shared = opening;
  }
  const current = shared;
  const sql = await current.sql;
  current.handles += 1;
  let closed = false;
  return {
    query: (text, params) => sql.query(text, params),
    transaction: (work) => sql.transaction(work),
    ...(sql.direct ? { direct: (work) => sql.direct!(work) } : {}),
    close: async () => {
      if (closed) return;
      closed = true;
      current.handles -= 1;
      if (current.handles > 0) return;
      if (registry.get(key) === current) registry.delete(key);
      await sql.close();
    },
  };
}

/**
 * Closes every connection of the process, whatever handles are still open on it: the server
 * stopping (service/host/shutdown.ts), once its requests have ended. The embedded database this
 * process hosts closes with its handle (its host file removed, its bridge stopped); a PostgreSQL
 * pool ends its connections.
 */
export async function closeOperationalStorage(): Promise<void> {
  closedForGood = true;
  const all = [...registry.values()];
  registry.clear();
  await Promise.all(all.map(async (shared) => (await shared.sql.catch(() => null))?.close()));
}
