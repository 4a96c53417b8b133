/**
 * The host file of the embedded database (`<DATA_DIR>/pglite.host.json`): which process hosts
 * it (pid, and when that process started), where its bridge listens, and since when. Created
 * exclusively, so one process at a time becomes the host (embedded.ts).
 *
 * "Gone" is proved, not assumed from the pid alone: after a crash (`kill -9`) the pid in the file
 * may be a zombie not yet reaped, or belong to another process by the time the server restarts
 * (pids are reused quickly in containers). So the file also records when its process started,
 * where the system says (Linux: the boot and the start time in /proc), and a holder counts as
 * the host only while its pid is alive, not a zombie, started then, and its bridge is not refused.
 */
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bridgeListening } from './bridge-client.ts';
import { bridgeAddress, type BridgeAddress } from './bridge-wire.ts';

export interface HostFile {
  pid: number;
  /** When that process started (processStart), where the system says. */
  started?: string | undefined;
  /** Null while the host is still opening the database. */
  bridge: BridgeAddress | null;
  since: string;
}

export function hostFilePath(dataDir: string): string {
  return path.join(path.dirname(dataDir), `${path.basename(dataDir)}.host.json`);
}

export function readHostFile(file: string): HostFile | null {
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
export const processStart = processStat(process.pid)?.started;

/** True while the process that wrote `info` still runs and hosts the database. */
export async function hostRuns(info: HostFile): Promise<boolean> {
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

export function writeHostFile(file: string, content: HostFile, exclusive: boolean): void {
  const text = `${JSON.stringify(content)}\n`;
  if (exclusive) {
    writeFileSync(file, text, { flag: 'wx', mode: 0o600 });
    return;
  }
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, file);
}

export function removeHostFileIfOurs(file: string): void {
  if (readHostFile(file)?.pid !== process.pid) return;
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

/** Claims the folder by creating the host file; false when another process holds it. */
export function claim(file: string): boolean {
  try {
    writeHostFile(
      file,
      { pid: process.pid, started: processStart, bridge: null, since: new Date().toISOString() },
      true,
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  // Two processes clearing the same stale file could both get here; only the last writer stays.
  return readHostFile(file)?.pid === process.pid;
}

export function removeStale(file: string, seen: HostFile): void {
  const current = readHostFile(file);
  if (current?.pid !== seen.pid || current.since !== seen.since) return;
  try {
    unlinkSync(file);
  } catch {
    // another process cleared it first
  }
}
