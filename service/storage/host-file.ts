/**
 * The host file of the embedded database (`<DATA_DIR>/pglite.host.json`): which process hosts
 * it (pid, and when that process started), where its bridge listens, and since when. Claimed
 * exclusively, so one process at a time becomes the host (embedded.ts).
 *
 * The file appears whole or not at all: a claim writes a draft beside it and links the draft to
 * the file's name (a link never replaces a file, so only one process can make it), and later
 * writes replace it by a rename. A claim that fails (a full disk) leaves nothing behind, and a
 * holder file that is empty or cannot be read was left by a crash or a full disk, never by a
 * process still writing it: it is stale, as is the file of a process that no longer runs
 * (processes.ts). A holder counts as the host only while its process runs and its bridge is not
 * refused.
 */
import { linkSync, readFileSync, readdirSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bridgeListening } from './bridge-client.ts';
import { bridgeAddress, type BridgeAddress } from './bridge-wire.ts';
import { processEnded, processStart, processTag, taggedProcessEnded } from './processes.ts';

export interface HostFile {
  pid: number;
  /** When that process started (processStart), where the system says. */
  started?: string | undefined;
  /** Null while the host is still opening the database. */
  bridge: BridgeAddress | null;
  since: string;
}

/** What the holder file says: nothing (no file), something no process could have written whole, or a holder. */
export type Holder = { state: 'none' } | { state: 'unreadable' } | { state: 'held'; info: HostFile };

export function hostFilePath(dataDir: string): string {
  return path.join(path.dirname(dataDir), `${path.basename(dataDir)}.host.json`);
}

export function readHolder(file: string): Holder {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { state: 'none' } : { state: 'unreadable' };
  }
  try {
    const info = JSON.parse(text) as HostFile;
    if (typeof info === 'object' && info !== null && Number.isInteger(info.pid)) return { state: 'held', info };
  } catch {
    // empty, or cut short: below
  }
  return { state: 'unreadable' };
}

function readHostFile(file: string): HostFile | null {
  const holder = readHolder(file);
  return holder.state === 'held' ? holder.info : null;
}

/** True while the process that wrote `info` still runs and hosts the database. */
export async function hostRuns(info: HostFile): Promise<boolean> {
  if (info.pid === process.pid) return false; // our own pid in a file we did not write: left by an earlier run
  // Another account's process (EPERM) is never this site's host either: the data folder is private to its account.
  try {
    process.kill(info.pid, 0);
  } catch {
    return false;
  }
  if (processEnded(info.pid, info.started)) return false;
  const bridge = bridgeAddress.safeParse(info.bridge);
  return !bridge.success || (await bridgeListening(bridge.data));
}

const draftSuffixes = ['.claim', '.tmp'];

/** A draft of the host file, named for the process writing it (processTag). */
function draftOf(file: string, suffix: string): string {
  return `${file}.${processTag}${suffix}`;
}

/** Writes `text` to `draft`; on failure (a full disk) removes whatever part of it was written. */
function writeDraft(draft: string, text: string): void {
  try {
    writeFileSync(draft, text, { mode: 0o600 });
  } catch (error) {
    rmSync(draft, { force: true });
    throw error;
  }
}

/** Replaces the host file whole (the host saying where its bridge is). */
export function writeHostFile(file: string, content: HostFile): void {
  const draft = draftOf(file, '.tmp');
  writeDraft(draft, `${JSON.stringify(content)}\n`);
  try {
    renameSync(draft, file);
  } catch (error) {
    rmSync(draft, { force: true });
    throw error;
  }
}

export function removeHostFileIfOurs(file: string): void {
  if (readHostFile(file)?.pid !== process.pid) return;
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

/** Drafts of the host file that processes which have ended left beside it (killed between writing and linking). */
function removeEndedDrafts(file: string): void {
  const prefix = `${path.basename(file)}.`;
  let names: string[];
  try {
    names = readdirSync(path.dirname(file));
  } catch {
    return;
  }
  for (const name of names) {
    const suffix = draftSuffixes.find((s) => name.endsWith(s));
    if (!name.startsWith(prefix) || !suffix) continue;
    if (taggedProcessEnded(name.slice(prefix.length, -suffix.length)))
      rmSync(path.join(path.dirname(file), name), { force: true });
  }
}

/**
 * Claims the folder by making the host file; false when another process holds it. Throws when
 * the file cannot be made (a full disk), leaving nothing behind.
 */
export function claim(file: string): boolean {
  removeEndedDrafts(file);
  const draft = draftOf(file, '.claim');
  const content: HostFile = { pid: process.pid, started: processStart, bridge: null, since: new Date().toISOString() };
  writeDraft(draft, `${JSON.stringify(content)}\n`);
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(draft, { force: true });
  }
  // Two processes clearing the same stale file could both get here; only the file's maker stays.
  return readHostFile(file)?.pid === process.pid;
}

/** Removes the holder file if it still says what was `seen` (a process that no longer runs, or nothing readable). */
export function removeStale(file: string, seen: Holder): void {
  const current = readHolder(file);
  if (current.state === 'none' || current.state !== seen.state) return;
  if (current.state === 'held' && seen.state === 'held') {
    if (current.info.pid !== seen.info.pid || current.info.since !== seen.info.since) return;
  }
  try {
    unlinkSync(file);
  } catch {
    // another process cleared it first
  }
}
