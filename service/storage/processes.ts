/**
 * Whether the process that left a file still runs: the host file of the embedded database
 * (host-file.ts), a server's note in dist/serving/, a draft in the enquiry outbox. A pid alone
 * does not prove it: after a crash (`kill -9`) the pid may be a zombie not yet reaped, or belong
 * to another process by the time the file is read (pids are reused quickly in containers). So
 * where the system says (Linux: the boot and the start time in /proc) the file also records when
 * its process started, and a later process on the same pid is not taken for it.
 */
import { readFileSync } from 'node:fs';

/**
 * A process as Linux describes it in /proc: its state, and what tells it apart from a later
 * process with the same pid (`started`: the boot, and the clock ticks from boot to its start).
 */
function processStat(pid: number): { state: string; started: string; ticks: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command name (in parentheses, which may hold spaces): field 3, the state, then on to field 22, the start time.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const ticks = fields[19] ?? '';
    return { state: fields[0] ?? '', started: `${boot}/${ticks}`, ticks };
  } catch {
    return null; // not Linux, or the process is gone
  }
}

const self = processStat(process.pid);

/** This process's start, recorded beside its pid where the system tells it. */
export const processStart = self?.started;

/** This process in a file name: `<pid>-<start ticks>`, or `<pid>` where the system does not tell its start. */
export const processTag = self ? `${process.pid}-${self.ticks}` : String(process.pid);

/** processEnded for the process a file name carries (processTag); a tag of another boot names a process that has ended. */
export function taggedProcessEnded(tag: string): boolean {
  const [pid, ticks] = tag.split('-');
  const boot = self?.started.split('/')[0];
  return processEnded(Number(pid), ticks !== undefined && boot !== undefined ? `${boot}/${ticks}` : undefined);
}

/**
 * True when the process `pid` (started at `started`, when known) has certainly ended: no process
 * has the pid, it is a zombie, or the process on it started at another time. Another account's
 * process (EPERM), or one whose start cannot be compared, counts as running: nothing of a live
 * process is ever taken for left behind.
 */
export function processEnded(pid: number, started: string | undefined): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return true;
  if (pid === process.pid) {
    // Our own pid: this process wrote it only if it wrote its own start (another server of this process).
    return processStart !== undefined && started !== processStart;
  }
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'EPERM';
  }
  const now = processStat(pid);
  if (!now) return false;
  if (now.state === 'Z' || now.state === 'X') return true;
  return started !== undefined && now.started !== started;
}
