/**
 * What a crashed process leaves on its pid, for the tests of taking the embedded database back
 * (tests/departures/crash.test.ts, npm run soak): a long-lived process of another program on
 * exactly that pid, as a container's quick pid reuse gives, or the crashed process itself as a
 * zombie, when its parent never reaps it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

/**
 * A `sleep` on exactly `pid` (which must be free: the crashed process reaped), or null where the
 * system will not say which pid comes next. Linux takes the next pid from
 * /proc/sys/kernel/ns_last_pid, writable with CAP_SYS_ADMIN or CAP_CHECKPOINT_RESTORE (root in
 * CI); another process may take the pid first, so it tries a few times.
 */
export async function squatOn(pid: number): Promise<ChildProcess | null> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    try {
      writeFileSync('/proc/sys/kernel/ns_last_pid', String(pid - 1));
    } catch {
      return null;
    }
    const child = spawn('sleep', ['600'], { stdio: 'ignore' });
    await new Promise((resolve) => child.once('spawn', resolve));
    if (child.pid === pid) return child;
    child.kill('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return null;
}

/** The state letter of a process in /proc (`Z` for a zombie), or null when there is none. */
export function processState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? null;
  } catch {
    return null;
  }
}
