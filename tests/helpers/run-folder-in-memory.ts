/**
 * Where a run's temporary files go: a folder of the run's own on the machine's memory-backed
 * filesystem (`/dev/shm`, a tmpfs), when it has one with room and the run was given no TMPDIR.
 * vitest.config.ts sets TMPDIR to it, so the run's own processes and every server, command and
 * build they start put their scratch there.
 *
 * Why: a run creates and removes tens of thousands of files (copies of the new database, of the
 * project and of the built site, builds, data folders). On these machines' disk (ext4 without a
 * journal) the kernel checks each free inode it considers for a new file against recent
 * deletions, reading its inode table, so a copy of the new database (971 files, 39 MB) took 0.5
 * to 0.8 s of CPU once the run had deleted many files, against 0.07 s on the tmpfs
 * (docs/testing.md).
 *
 * What needs the disk asks for it: `vercel build`'s copy hard-links this project's
 * `node_modules`, which only works on the same filesystem (`onProjectDisk`).
 */
import { accessSync, chmodSync, constants, mkdtempSync, readdirSync, rmSync, statfsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { processEnded } from '../../service/storage/processes.ts';

const memory = '/dev/shm';
/** The magic number statfs gives a tmpfs (linux/magic.h). */
const tmpfsMagic = 0x01021994;
/**
 * A run's scratch reached about 400 MB (sampled every 15 s through a whole run): this leaves
 * the run room to grow and the rest of the machine its memory.
 */
const roomNeeded = 4 * 2 ** 30;
const prefix = 'catalogue-tests-';

/** Folders of runs that ended without removing theirs (killed), which would otherwise hold memory until a restart. */
function removeAbandoned(): void {
  for (const name of readdirSync(memory)) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number.parseInt(name.slice(prefix.length), 10);
    if (pid > 0 && processEnded(pid, undefined)) rmSync(path.join(memory, name), { recursive: true, force: true });
  }
}

/**
 * Makes the run's folder in memory and returns it with a function that removes it, or returns
 * undefined when the machine has no tmpfs at /dev/shm with room, or this process cannot write
 * there (the run then keeps the usual temporary folder).
 */
export function runFolderInMemory(): { dir: string; remove(): void } | undefined {
  try {
    const info = statfsSync(memory);
    if (info.type !== tmpfsMagic || info.bavail * info.bsize < roomNeeded) return undefined;
    accessSync(memory, constants.W_OK);
    removeAbandoned();
    const dir = mkdtempSync(path.join(memory, `${prefix}${process.pid}-`));
    // Open to other users as /tmp is, though not writable by them: PostgreSQL's programs run as
    // postgres and reach their data folders through it (tests/departures/postgres.ts).
    chmodSync(dir, 0o755);
    return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
  } catch {
    return undefined;
  }
}

/**
 * A folder for scratch that must be on the same filesystem as `beside` (to hard-link into it):
 * the temporary folder when it is, else the machine's usual one (the run's TMPDIR may be the
 * folder in memory above).
 */
export function onProjectDisk(beside: string): string {
  const device = statSync(beside).dev;
  for (const candidate of [tmpdir(), '/tmp', '/var/tmp']) {
    try {
      if (statSync(candidate).dev === device) return candidate;
    } catch {
      // Not on this machine: try the next.
    }
  }
  return tmpdir();
}
