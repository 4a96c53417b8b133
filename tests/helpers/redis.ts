/**
 * A real redis-server (the Debian package) for tests: its own loopback port and temp dir, no
 * persistence, stopped afterwards. It can be stopped and started again on the same port, or
 * paused (SIGSTOP) to stand for a server that accepts connections but never answers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { onFreePort } from './project.ts';

export interface RunningRedis {
  port: number;
  url: string;
  /** Stops the server (SIGTERM) and waits for it to exit; the port stays reserved for start(). */
  stop(): Promise<void>;
  /** Kills it (SIGKILL), as a crash or the memory killer would, and waits until it is gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty; does nothing while it runs. */
  start(): Promise<void>;
  pause(): void;
  resume(): void;
  /** Stops it for good and removes its directory. */
  remove(): Promise<void>;
}

export async function startRedis(): Promise<RunningRedis> {
  let port = 0;
  const dir = mkdtempSync(path.join(tmpdir(), 'catalogue-redis-'));
  let child: ChildProcess | undefined;

  /** Resolves once this process (not some other server on the port) is ready. */
  async function start(): Promise<void> {
    if (child && child.exitCode === null) return;
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
    const proc = spawn('redis-server', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    let log = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        proc.kill('SIGKILL');
        reject(new Error(`redis-server did not start:\n${log}`));
      }, 10_000);
      const onData = (d: Buffer) => {
        log += String(d);
        if (log.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      };
      proc.stdout?.on('data', onData);
      proc.stderr?.on('data', onData);
      proc.once('exit', () => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited:\n${log}`));
      });
    });
  }

  async function stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGCONT'); // a paused server cannot act on SIGTERM
    proc.kill(signal);
    await exited;
  }

  port = await onFreePort((free) => ((port = free), start()));
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop: () => stop(),
    kill: () => stop('SIGKILL'),
    start,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    remove: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
