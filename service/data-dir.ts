/**
 * DATA_DIR holds what only the account running the site may read or change: the embedded
 * database (its WAL carries enquirers' names and phone numbers), the enquiry outbox, the local
 * signing key, and the bridge's host file and socket. prepareDataDir makes it so, once per
 * process, before any of them is written:
 *   - the process umask gains 077, so every file created from then on (PGlite's own included,
 *     which we cannot give a mode) is 0600 and every folder 0700;
 *   - DATA_DIR is created 0700;
 *   - what an earlier version left there loses its group and other access, folder by folder
 *     within DATA_DIR; links are not followed, so nothing outside it is touched.
 * The server and the operations commands call it at start; opening the embedded database calls
 * it too (storage.ts), so no process creates the database's files without it. The umask is not
 * enough for PGlite alone: it unpacks a new database's first files with mode 0666 set explicitly,
 * so the host makes its folder private again once it has opened it (embedded.ts).
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';
import type { Settings } from './config.ts';

/** Access for the owner only. */
const othersBits = 0o077;

export interface PreparedDataDir {
  dir: string;
  /** What lost group or other access, this time (empty when the process prepared the folder before). */
  tightened: string[];
  /** What could not be tightened (owned by another account), with why. */
  problems: string[];
}

/** The folders this process has prepared: the host, its functions and its stores share this one module. */
const prepared = new Set<string>();

/** Adds 077 to the process umask. Worker threads share the process's umask and may not set it. */
function restrictUmask(): void {
  if (!isMainThread) return;
  const previous = process.umask(othersBits);
  process.umask(previous | othersBits);
}

function tighten(target: string, mode: number, result: PreparedDataDir): void {
  if ((mode & othersBits) === 0) return;
  try {
    chmodSync(target, mode & 0o7777 & ~othersBits);
    result.tightened.push(target);
  } catch (error) {
    result.problems.push(`${target}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

function tightenTree(dir: string, result: PreparedDataDir): void {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    let info;
    try {
      info = lstatSync(full);
    } catch {
      continue; // removed meanwhile
    }
    if (info.isSymbolicLink()) continue;
    tighten(full, info.mode, result);
    if (info.isDirectory()) tightenTree(full, result);
  }
}

/**
 * Removes group and other access from `dir` and everything in it. `dir` itself may be a link the
 * operator made on purpose (its target is what to keep private); links inside are not followed.
 */
export function makePrivate(dir: string): Omit<PreparedDataDir, 'dir'> {
  const result: PreparedDataDir = { dir, tightened: [], problems: [] };
  tighten(dir, statSync(dir).mode, result);
  tightenTree(dir, result);
  return { tightened: result.tightened, problems: result.problems };
}

export function prepareDataDir(
  settings: Pick<Settings, 'DATA_DIR'>,
  options: { log?: (line: string) => void } = {},
): PreparedDataDir {
  const dir = path.resolve(settings.DATA_DIR);
  restrictUmask();
  if (prepared.has(dir)) return { dir, tightened: [], problems: [] };
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const result = { dir, ...makePrivate(dir) };
  prepared.add(dir);
  const log = options.log ?? ((line: string) => console.error(line));
  if (result.tightened.length > 0)
    log(`[data] ${dir}: removed group and other access from ${result.tightened.length} file(s) and folder(s)`);
  if (result.problems.length > 0)
    log(`[data] ${dir}: could not make private (not ours?): ${result.problems.slice(0, 5).join('; ')}`);
  return result;
}
