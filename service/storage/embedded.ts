/**
 * The embedded database (PGlite) is one process's database: two processes opening the same
 * folder would corrupt it. So the first process to open it becomes its host: it writes a host
 * file beside the folder (host-file.ts: pid, the bridge's socket path, or port on Windows, and
 * token), serves the database on its bridge, and removes the file when it closes. Every other
 * process (the departures CLI while `npm start` runs) finds the file and talks to the host over
 * the bridge; when the host has gone, the next process to open the database becomes the host.
 * Within a process there is exactly one host per folder.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { makePrivate } from '../data-dir.ts';
import { startBridge } from './bridge.ts';
import { BridgeUnreachable, bridgeSql } from './bridge-client.ts';
import { privateBridgeSocket } from './bridge-socket.ts';
import { bridgeAddress, type BridgeAddress } from './bridge-wire.ts';
import { storageFailure } from './disk-space.ts';
import {
  claim,
  hostFilePath,
  hostRuns,
  readHolder,
  removeHostFileIfOurs,
  removeStale,
  writeHostFile,
} from './host-file.ts';
import { processStart } from './processes.ts';
import type { Sql } from './sql.ts';

/**
 * PGlite sized for this catalogue: its data (departures, enquiries, agent registrations) is a few
 * hundred kilobytes, and Postgres's defaults (128 MB of shared buffers, 4 MB per sort) are made
 * for a database server of its own. With these the server rests about 140 MiB lower (measured:
 * 314 MiB against 177 MiB for Node with PGlite open, scripts/bench/fairness.ts for the whole
 * server). PGlite's WebAssembly memory starts at its module's own minimum (128 MiB, reserved,
 * not resident) and grows as Postgres needs; the settings bound what Postgres asks for.
 */
export function embeddedStartParams(defaults: readonly string[]): string[] {
  const settings = {
    shared_buffers: '16MB',
    work_mem: '2MB',
    maintenance_work_mem: '8MB',
    temp_buffers: '1MB',
    wal_buffers: '256kB',
  };
  return [...defaults, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
}

interface Host {
  db: PGlite;
  file: string;
  handles: number;
  close(): Promise<void>;
}

/** The databases this process hosts, by folder. */
const hosts = new Map<string, Promise<Host>>();

/**
 * Marks a database being made in `dataDir` (beside it, as `<folder>.creating`) until PGlite has
 * made it whole. A folder found with the mark was cut short (a full disk, a kill): PGlite writes
 * PG_VERSION before the rest, so it would try to open it and fail on every start after.
 */
function creationMark(dataDir: string): string {
  return path.join(path.dirname(dataDir), `${path.basename(dataDir)}.creating`);
}

/** Whether `dataDir` holds a database made whole; a creation cut short is removed, to be made again. */
function databaseMade(dataDir: string): boolean {
  const mark = creationMark(dataDir);
  if (existsSync(mark)) {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(mark, { force: true });
    return false;
  }
  return existsSync(path.join(dataDir, 'PG_VERSION'));
}

/** Opens the database in `dataDir` (making it when there is none) as this process's host of it: only the holder of the host file calls this. */
async function becomeHost(dataDir: string, file: string): Promise<Host> {
  // What is undone, last first, when a step fails: nothing half-made stays (an open database, a bridge, the host file).
  const undo: (() => unknown)[] = [];
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const made = databaseMade(dataDir);
    if (!made) {
      writeFileSync(creationMark(dataDir), '', { mode: 0o600 });
      undo.push(() => {
        rmSync(dataDir, { recursive: true, force: true });
        rmSync(creationMark(dataDir), { force: true });
      });
    }
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const db = await PGlite.create(dataDir, { startParams: embeddedStartParams(PGlite.defaultStartParams) });
    undo.push(() => db.close().catch(() => undefined));
    if (!made) rmSync(creationMark(dataDir), { force: true });
    // A new database's first files are unpacked 0666 whatever the umask (data-dir.ts).
    makePrivate(dataDir);
    const token = randomBytes(24).toString('base64url');
    const socket = privateBridgeSocket(dataDir);
    undo.push(() => socket?.remove());
    const bridge = await startBridge(db, token, { socketPath: socket?.path });
    undo.push(() => bridge.stop());
    writeHostFile(file, {
      pid: process.pid,
      started: processStart,
      bridge: bridge.address,
      since: new Date().toISOString(),
    });
    const onExit = () => {
      removeHostFileIfOurs(file);
      socket?.remove();
    };
    process.once('exit', onExit);
    let closing: Promise<void> | undefined;
    return {
      db,
      file,
      handles: 0,
      // Once, however many ask (the last handle, and the server stopping).
      close: () =>
        (closing ??= (async () => {
          process.off('exit', onExit);
          removeHostFileIfOurs(file);
          await bridge.stop();
          socket?.remove();
          await db.close();
        })()),
    };
  } catch (error) {
    for (const step of undo.reverse()) await step();
    removeHostFileIfOurs(file);
    throw storageFailure(error, path.dirname(dataDir));
  }
}

type Route = { kind: 'host'; host: Host } | { kind: 'bridge'; address: BridgeAddress };

/** Claims the folder (see claim); a failure to make the host file is worded for the people running the site. */
function claimed(file: string, dataDir: string): boolean {
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    return claim(file);
  } catch (error) {
    throw storageFailure(error, path.dirname(dataDir));
  }
}

/**
 * Where this process reaches the database: its own host, or another process's bridge.
 * Waits (up to `waitMs`) while another process is still opening it.
 */
async function route(dataDir: string, waitMs: number): Promise<Route> {
  const file = hostFilePath(dataDir);
  const deadline = Date.now() + waitMs;
  for (;;) {
    const local = hosts.get(dataDir);
    if (local) return { kind: 'host', host: await local };
    const holder = readHolder(file);
    const info = holder.state === 'held' ? holder.info : null;
    if (info && (await hostRuns(info))) {
      const address = bridgeAddress.safeParse(info.bridge);
      if (address.success) return { kind: 'bridge', address: address.data };
    } else {
      // A holder that no longer runs, or a file no process could have written whole (a full disk, a crash): stale.
      if (holder.state !== 'none') removeStale(file, holder);
      if (claimed(file, dataDir)) {
        const opening = becomeHost(dataDir, file);
        hosts.set(dataDir, opening);
        opening.catch(() => hosts.delete(dataDir));
        return { kind: 'host', host: await opening };
      }
    }
    if (Date.now() > deadline) {
      throw new Error(
        `the embedded database ${dataDir} is held by process ${info?.pid ?? '?'}, which has not opened it within ${Math.round(waitMs / 1000)} s. ` +
          `If no catalogue server or departures command is running, delete ${file} and try again.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A PGlite database of this process behind `Sql` (closing is the caller's). */
export function localSql(db: PGlite): Omit<Sql, 'close'> {
  return {
    query: async (text, params) => ({ rows: (await db.query(text, params)).rows as never[] }),
    transaction: (work) =>
      db.transaction((tx) =>
        work({ query: async (text, params) => ({ rows: (await tx.query(text, params)).rows as never[] }) }),
      ),
  };
}

/**
 * Opens the embedded database in `dataDir`, hosting it here or reaching the process that
 * hosts it. Closing the last handle in the hosting process closes the database.
 */
export async function openEmbeddedDatabase(dataDir: string, options: { waitMs?: number } = {}): Promise<Sql> {
  const folder = path.resolve(dataDir);
  const waitMs = options.waitMs ?? 30_000;
  let current = await route(folder, waitMs);
  let hosting: Host | undefined = current.kind === 'host' ? current.host : undefined;
  if (hosting) hosting.handles += 1;

  /** Runs `op` where the database is now; if the other host went away, finds it again once (perhaps hosting it here). */
  const once = <R>(op: (sql: Omit<Sql, 'close'>) => Promise<R>): Promise<R> =>
    op(current.kind === 'host' ? localSql(current.host.db) : bridgeSql(current.address));
  const run = async <R>(op: (sql: Omit<Sql, 'close'>) => Promise<R>): Promise<R> => {
    try {
      return await once(op);
    } catch (error) {
      if (!(error instanceof BridgeUnreachable)) throw error;
      current = await route(folder, waitMs);
      if (current.kind === 'host' && !hosting) {
        hosting = current.host;
        hosting.handles += 1;
      }
      return once(op);
    }
  };

  let closed = false;
  return {
    query: (text, params) => run((sql) => sql.query(text, params)),
    transaction: (work) => run((sql) => sql.transaction(work)),
    close: async () => {
      if (closed || !hosting) return;
      closed = true;
      hosting.handles -= 1;
      if (hosting.handles > 0) return;
      if ((await hosts.get(folder)) === hosting) hosts.delete(folder);
      await hosting.close();
    },
  };
}

/** The closing of the databases this process has stopped hosting, settled once all have closed. */
let closing: Promise<unknown> = Promise.resolve();

/**
 * Closes every embedded database this process hosts (server shutdown), and waits for those a
 * call before it is still closing: once it resolves, no database of this process is open on its
 * folder, and the folder can go.
 */
export async function closeHostedDatabases(): Promise<void> {
  const all = [...hosts.values()];
  hosts.clear();
  const closed = Promise.all(all.map(async (opening) => (await opening.catch(() => null))?.close()));
  const before = closing;
  closing = Promise.allSettled([before, closed]);
  await before;
  await closed;
}

/**
 * The embedded database in `dataDir`. Safe to call from several processes: the first hosts
 * it, the others reach it through the host (see embedded.ts). `null` gives a private
 * in-memory database (tests).
 */
export async function openEmbedded(dataDir: string | null): Promise<Sql> {
  if (dataDir !== null) return openEmbeddedDatabase(dataDir);
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create({ startParams: embeddedStartParams(PGlite.defaultStartParams) });
  return { ...localSql(db), close: () => db.close() };
}
