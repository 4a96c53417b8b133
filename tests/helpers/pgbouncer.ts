/**
 * A real PgBouncer (Debian's `pgbouncer`) in transaction mode in front of a test's PostgreSQL,
 * as hosted poolers run (Neon's, Supabase's): every database name of the server passes through,
 * trust authentication on loopback, its own free port, its Unix socket and files in a temp
 * folder. It can be restarted on the same port, or killed, as a pooler that is redeployed or
 * crashes. PgBouncer refuses to run as root, so as root it runs as the `postgres` user.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { onFreePort } from './project.ts';
import { pgbouncerPath } from './requirements.ts';
import { eventually, whileRunning } from './eventually.ts';

export interface TestPgBouncer {
  port: number;
  /** The pooled address of `database` (as DATABASE_URL on a host with a pooler). */
  url(database: string): string;
  /** Stops at once (SIGTERM: PgBouncer's immediate shutdown) and waits until it has exited. */
  stop(): Promise<void>;
  /** Starts again on the same port; does nothing while it runs. */
  start(): Promise<void>;
  /** Stopped and started again: every client connection is cut, as a redeployed pooler does. */
  restart(): Promise<void>;
  /** Its log, for a test's failure message. */
  log(): string;
  remove(): Promise<void>;
}

function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('no "postgres" user to run PgBouncer as');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** PgBouncer in transaction mode on a free loopback port, in front of the PostgreSQL at `postgresPort`. */
export async function startPgBouncer(postgresPort: number): Promise<TestPgBouncer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'catalogue-pgbouncer-'));
  const user = postgresUser();
  let port = 0;
  const ini = path.join(dir, 'pgbouncer.ini');
  const logFile = path.join(dir, 'pgbouncer.log');
  const write = () =>
    writeFileSync(
      ini,
      [
        '[databases]',
        // Any database name the client asks for, on the test's server.
        `* = host=127.0.0.1 port=${postgresPort}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        `unix_socket_dir = ${dir}`,
        `logfile = ${logFile}`,
        'pool_mode = transaction',
        'auth_type = trust',
        `auth_file = ${path.join(dir, 'users.txt')}`,
        'default_pool_size = 20',
        'max_client_conn = 500',
        // A restarted server is found again at once, not after the default 15 s.
        'server_login_retry = 1',
        '',
      ].join('\n'),
    );
  writeFileSync(path.join(dir, 'users.txt'), '"postgres" ""\n');
  if (user) for (const file of [dir, path.join(dir, 'users.txt')]) chownSync(file, user.uid, user.gid);

  let child: ChildProcess | undefined;
  let output = '';

  async function start(): Promise<void> {
    if (child && child.exitCode === null && child.signalCode === null) return;
    write();
    if (user) chownSync(ini, user.uid, user.gid);
    const proc = spawn(pgbouncerPath(), [ini], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}) });
    child = proc;
    proc.stdout?.on('data', (d) => (output += String(d)));
    proc.stderr?.on('data', (d) => (output += String(d)));
    // Listening once a connection is accepted; failing when it exits first.
    try {
      await eventually(
        () =>
          new Promise<void>((resolve, reject) => {
            const socket = connect({ host: '127.0.0.1', port }, () => (socket.destroy(), resolve()));
            socket.once('error', reject);
          }),
        {
          withinMs: 15_000,
          everyMs: 50,
          unless: whileRunning(proc, () => `pgbouncer exited (${proc.exitCode}):\n${output}\n${log()}`),
        },
      );
    } catch (error) {
      proc.kill('SIGKILL');
      throw new Error(
        `pgbouncer did not listen within 15 s (${(error as Error).message.split('\n')[0]}):\n${output}\n${log()}`,
        { cause: error },
      );
    }
  }

  async function stop(): Promise<void> {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await exited;
  }

  function log(): string {
    try {
      return readFileSync(logFile, 'utf8');
    } catch {
      return '';
    }
  }

  try {
    port = await onFreePort((free) => ((port = free), start()));
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    get port() {
      return port;
    },
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop,
    start,
    restart: async () => {
      await stop();
      await start();
    },
    log,
    remove: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
