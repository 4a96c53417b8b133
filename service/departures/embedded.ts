/**
 * The embedded database (PGlite) is one process's database: two processes opening the same
 * folder would corrupt it. So the first process to open it becomes its host: it writes a host
 * file beside the folder (`<DATA_DIR>/pglite.host.json`: pid, the bridge's socket path, or port
 * on Windows, and token), serves the database on its bridge, and removes the file when it closes. Every other process (the
 * departures CLI while `npm start` runs) finds the file and talks to the host over the bridge;
 * when the host has gone, the next process to open the database becomes the host.
 *
 * "Gone" is proved, not assumed from the pid alone: after a crash (`kill -9`) the pid in the file
 * may be a zombie not yet reaped, or belong to another process by the time the server restarts
 * (pids are reused quickly in containers). So the file also records when its process started,
 * where the system says (Linux: the boot and the start time in /proc), and a holder counts as
 * the host only while its pid is alive, not a zombie, started then, and its bridge is not refused.
 *
 * Within a process there is exactly one host per folder, shared through globalThis because the
 * server and Astro's server bundle each load their own copy of this module.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { makePrivate } from '../data-dir.ts';
import { startBridge } from './bridge.ts';
import { BridgeUnreachable, bridgeListening, bridgeSql } from './bridge-client.ts';
import { privateBridgeSocket } from './bridge-socket.ts';
import { bridgeAddress, type BridgeAddress } from './bridge-wire.ts';
import type { Sql } from './sql.ts';

interface HostFile {
  pid: number;
  /** When that process started (processStart), where the system says. */
  started?: string | undefined;
  /** Null while the host is still opening the database. */
  bridge: BridgeAddress | null;
  since: string;
}

interface Host {
  db: PGlite;
  file: string;
  handles: number;
  close(): Promise<void>;
}

const hostsKey = Symbol.for('catalogue.embeddedDatabaseHosts');
const hosts: Map<string, Promise<Host>> = ((globalThis as Record<symbol, unknown>)[hostsKey] as Map<string, Promise<Host>> | undefined) ?? new Map();
(globalThis as Record<symbol, unknown>)[hostsKey] = hosts;

export function hostFilePath(dataDir: string): string {
  return path.join(path.dirname(dataDir), `${path.basename(dataDir)}.host.json`);
}

function readHostFile(file: string): HostFile | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as HostFile;
  } catch {
    return null;
  }
}

/** A process as Linux describes it in /proc: its state, and what tells it apart from a later process with the same pid. */
function processStat(pid: number): { state: string; started: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command name (in parentheses, which may hold spaces): field 3, the state, then on to field 22, the start time.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return { state: fields[0] ?? '', started: `${boot}/${fields[19] ?? ''}` };
  } catch {
    return null; // not Linux, or the process is gone
  }
}

/** This process's start, recorded in the host file, where the system tells it. */
const processStart = processStat(process.pid)?.started;

/** True while the process that wrote `info` still runs and hosts the database. */
async function hostRuns(info: HostFile): Promise<boolean> {
  if (info.pid === process.pid) return false; // our own pid in a file we did not write: left by an earlier run
  try {
    process.kill(info.pid, 0);
  } catch {
    // Gone, or (EPERM) another account's process: never this site's host, whose files are private to its account.
    return false;
  }
  const now = processStat(info.pid);
  if (now) {
    // Died but not yet reaped by its parent: its pid lingers, the host does not.
    if (now.state === 'Z' || now.state === 'X') return false;
    // The pid now names a process that started after the one that wrote the file.
    if (info.started !== undefined && now.started !== info.started) return false;
  }
  const bridge = bridgeAddress.safeParse(info.bridge);
  return !bridge.success || (await bridgeListening(bridge.data));
}

function writeHostFile(file: string, content: HostFile, exclusive: boolean): void {
  const text = `${JSON.stringify(content)}\n`;
  if (exclusive) {
    writeFileSync(file, text, { flag: 'wx', mode: 0o600 });
    return;
  }
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, file);
}

function removeHostFileIfOurs(file: string): void {
  if (readHostFile(file)?.pid !== process.pid) return;
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

/** Claims the folder by creating the host file; false when another process holds it. */
function claim(file: string): boolean {
  try {
    writeHostFile(file, { pid: process.pid, started: processStart, bridge: null, since: new Date().toISOString() }, true);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  // Two processes clearing the same stale file could both get here; only the last writer stays.
  return readHostFile(file)?.pid === process.pid;
}

async function becomeHost(dataDir: string, file: string): Promise<Host> {
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const db = await PGlite.create(dataDir);
    // A new database's first files are unpacked 0666 whatever the umask (data-dir.ts).
    makePrivate(dataDir);
    const token = randomBytes(24).toString('base64url');
    let socket: ReturnType<typeof privateBridgeSocket> = null;
    let bridge: Awaited<ReturnType<typeof startBridge>>;
    try {
      socket = privateBridgeSocket(dataDir);
      bridge = await startBridge(db, token, { socketPath: socket?.path });
    } catch (error) {
      socket?.remove();
      await db.close().catch(() => undefined);
      throw error;
    }
    writeHostFile(file, { pid: process.pid, started: processStart, bridge: bridge.address, since: new Date().toISOString() }, false);
    const onExit = () => {
      removeHostFileIfOurs(file);
      socket?.remove();
    };
    process.once('exit', onExit);
    return {
      db,
      file,
      handles: 0,
      close: async () => {
        process.off('exit', onExit);
        removeHostFileIfOurs(file);
        await bridge.stop();
        socket?.remove();
        await db.close();
      },
    };
  } catch (error) {
    removeHostFileIfOurs(file);
    throw error;
  }
}

type Route = { kind: 'host'; host: Host } | { kind: 'bridge'; address: BridgeAddress };

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
    const info = readHostFile(file);
    if (info && (await hostRuns(info))) {
      const address = bridgeAddress.safeParse(info.bridge);
      if (address.success) return { kind: 'bridge', address: address.data };
    } else {
      if (info) removeStale(file, info);
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      if (claim(file)) {
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

function removeStale(file: string, seen: HostFile): void {
  const current = readHostFile(file);
  if (current?.pid !== seen.pid || current.since !== seen.since) return;
  try {
    unlinkSync(file);
  } catch {
    // another process cleared it first
  }
}

function localSql(db: PGlite): Omit<Sql, 'close'> {
  return {
    query: async (text, params) => ({ rows: (await db.query(text, params)).rows as never[] }),
    transaction: (work) => db.transaction((tx) => work({ query: async (text, params) => ({ rows: (await tx.query(text, params)).rows as never[] }) })),
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

/** Closes every embedded database this process hosts (server shutdown). */
export async function closeHostedDatabases(): Promise<void> {
  const all = [...hosts.entries()];
  hosts.clear();
  await Promise.all(all.map(async ([, opening]) => (await opening.catch(() => null))?.close()));
}

/**
 * The embedded database in `dataDir`. Safe to call from several processes: the first hosts
 * it, the others reach it through the host (see embedded.ts). `null` gives a private
 * in-memory database (tests).
 */
export async function openEmbedded(dataDir: string | null): Promise<Sql> {
  if (dataDir !== null) return openEmbeddedDatabase(dataDir);
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create();
  return {
    query: async (text, params) => ({ rows: (await db.query(text, params)).rows as never[] }),
    transaction: (work) => db.transaction((tx) => work({ query: async (text, params) => ({ rows: (await tx.query(text, params)).rows as never[] }) })),
    close: () => db.close(),
  };
}
