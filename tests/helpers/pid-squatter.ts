/**
 * What a crashed process leaves on its pid, for the tests of taking the embedded database back
 * (tests/departures/crash.test.ts, npm run soak): a long-lived process of another program on
 * exactly that pid, as a container's quick pid reuse gives, or the crashed process itself as a
 * zombie, when its parent never reaps it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { hostFilePath } from '../../service/storage/host-file.ts';

/**
 * A `sleep` on exactly `pid` (which must be free: the crashed process reaped), or null where the
 * system will not say which pid comes next. Linux takes the next pid from
 * /proc/sys/kernel/ns_last_pid, writable with CAP_SYS_ADMIN or CAP_CHECKPOINT_RESTORE (root in
 * CI); another process may take the pid first, so it tries a few times.
 */
async function squatOn(pid: number): Promise<ChildProcess | null> {
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

/**
 * Something alive on the pid a dead host wrote in `dataDir`'s host file: a `sleep` given that
 * very pid where the system allows it (squatOn); elsewhere a `sleep` with a pid of its own that
 * the host file is made to name, which is what a server reads when the pid has been reused.
 */
export async function occupyDeadHostPid(
  pid: number,
  dataDir: string,
): Promise<{ squatter: ChildProcess; how: string }> {
  const squatter = await squatOn(pid);
  if (squatter) return { squatter, how: `a sleep given its very pid ${pid}` };
  const standIn = spawn('sleep', ['600'], { stdio: 'ignore' });
  await new Promise((resolve) => standIn.once('spawn', resolve));
  const file = hostFilePath(dataDir);
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), pid: standIn.pid }));
  return {
    squatter: standIn,
    how: `the host file naming a live sleep (pid ${standIn.pid}; ns_last_pid is not writable here)`,
  };
}
