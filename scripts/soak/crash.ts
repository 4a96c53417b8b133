/**
 * The soak's crash (scripts/soak.ts): the server on the embedded database killed with `kill -9`
 * in the middle of a burst of enquiries, another process put on its pid at once (as containers
 * reuse pids), and the server started again on the same data and port. The new server must take
 * the database back, though something still runs under the old host's pid.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { occupyDeadHostPid } from '../../tests/helpers/pid-squatter.ts';
import { whenServing, type RunningServer } from '../../tests/helpers/project.ts';

export interface Crash {
  /** The server started again, on the same port. */
  server: RunningServer;
  /** What holds the dead server's pid; killed by the caller at the end. */
  squatter: ChildProcess;
  how: string;
  killedAt: number;
  /** From the restart to the first departures read answered 200. */
  takenBackMs: number;
}

/** Kills `server` (SIGKILL), squats on its pid, and starts `dir`'s server.ts again with `env` on the same port. */
export async function crashWithSquatter(
  server: RunningServer,
  dir: string,
  env: Record<string, string>,
  dataDir: string,
): Promise<Crash> {
  const pid = server.process.pid!;
  const exited = new Promise((resolve) => server.process.once('exit', resolve));
  server.process.kill('SIGKILL');
  const killedAt = Date.now();
  await exited;
  const { squatter, how } = await occupyDeadHostPid(pid, path.join(dataDir, 'pglite'));
  const child = spawn(process.execPath, [path.join(dir, 'server.ts')], {
    cwd: dir,
    env: { ...process.env, PORT: String(server.port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const restarted = await whenServing(child, server.port, mkdtempSync(path.join(tmpdir(), 'soak-restart-')));
  const started = Date.now();
  while (
    (await fetch(`${restarted.url}/v1/departures`).then(
      (r) => r.status,
      () => 0,
    )) !== 200 &&
    Date.now() - started < 60_000
  ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { server: restarted, squatter, how, killedAt, takenBackMs: Date.now() - started };
}
