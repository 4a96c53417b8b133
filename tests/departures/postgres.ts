/**
 * A real PostgreSQL server for the tests: Debian's binaries, a cluster in a temp folder, a
 * free loopback port, trust authentication on 127.0.0.1 only. Stopped (and removed) after.
 * PostgreSQL refuses to run as root, so as root the commands run as the `postgres` user.
 * `postgresRoutes` puts PgBouncer in transaction mode in front of it as well.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startPgBouncer, type TestPgBouncer } from '../helpers/pgbouncer.ts';
import { freePort } from '../helpers/project.ts';
import { postgresBinDir, postgresRoot } from '../helpers/requirements.ts';

function binaries(): string {
  const dir = postgresBinDir();
  if (!dir)
    throw new Error(`PostgreSQL server binaries not found under ${postgresRoot()} (apt-get install postgresql)`);
  return dir;
}

export interface TestPostgres {
  /** Connection string of the `postgres` database. */
  url: string;
  port: number;
  start(): void;
  /** Stops at once, as a crash or an outage would. */
  stop(): void;
  /** Freezes the server's processes: connections stay open but nothing answers (a hung server). */
  pause(): void;
  resume(): void;
  /** A fresh, empty database on this server. */
  createDatabase(name: string): Promise<string>;
  remove(): void;
}

export interface PostgresOptions {
  /**
   * Commits on disk before they are answered, as on a real server. Tests run without (fsync and
   * synchronous commit off: faster), so a crash (`stop`) may lose the last commits it answered.
   */
  durable?: boolean;
}

export async function startPostgres({ durable = false }: PostgresOptions = {}): Promise<TestPostgres> {
  const bin = binaries();
  const dir = mkdtempSync(path.join(tmpdir(), 'catalogue-pg-'));
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = userIds('postgres');
    chownSync(dir, uid, gid);
    chmodSync(dir, 0o700);
  }
  const run = (command: string, args: string[]) => {
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', path.join(bin, command), ...args]]
      : [path.join(bin, command), args];
    const result = spawnSync(file, argv, { encoding: 'utf8', timeout: 120_000 });
    if (result.status !== 0) {
      const log = existsSync(path.join(dir, 'server.log')) ? readFileSync(path.join(dir, 'server.log'), 'utf8') : '';
      throw new Error(`${command} failed (${result.status}): ${result.stderr || result.stdout}\n${log}`);
    }
  };
  const port = await freePort();
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-locale', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir}${durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off'}`;
  const start = () =>
    run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  const stop = () => run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
  start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  /** This cluster's postmaster and its children, found by pid (never by name). */
  const processes = (): number[] => {
    const postmaster = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((pid) => {
        try {
          // Field 4 of /proc/<pid>/stat is the parent pid (after the parenthesised command name).
          return (
            Number(
              readFileSync(`/proc/${pid}/stat`, 'utf8')
                .replace(/^.*\) /s, '')
                .split(' ')[1],
            ) === postmaster
          );
        } catch {
          return false;
        }
      })
      .map(Number);
    return [postmaster, ...children];
  };
  return {
    url,
    port,
    start,
    stop,
    pause: () => {
      for (const pid of processes()) process.kill(pid, 'SIGSTOP');
    },
    resume: () => {
      for (const pid of processes().reverse()) process.kill(pid, 'SIGCONT');
    },
    createDatabase: async (name) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name}"`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    remove: () => {
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function userIds(name: string): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  if (!line) throw new Error(`no "${name}" user to run PostgreSQL as`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** One way the site reaches the test's PostgreSQL: directly, or through PgBouncer in transaction mode. */
export interface PostgresRoute {
  name: string;
  /** Whether it goes through the pooler. */
  pooled: boolean;
  /** The address of a new, empty database on this route. */
  newDatabase(name: string): Promise<string>;
}

export interface PostgresRoutes {
  /** Directly, then through the pooler: what a file's suites run on, each once per route. */
  routes: PostgresRoute[];
  /** The servers, started at the first use of either route. */
  servers(): Promise<{ postgres: TestPostgres; pooler: TestPgBouncer }>;
  /** Stops and removes both, if they were started. */
  remove(): Promise<void>;
}

/**
 * A PostgreSQL server and PgBouncer in transaction mode in front of it (as hosted poolers run),
 * started when a suite first asks for a database, so a file runs the same suite both ways.
 */
export function postgresRoutes(options: PostgresOptions = {}): PostgresRoutes {
  let started: Promise<{ postgres: TestPostgres; pooler: TestPgBouncer }> | undefined;
  const servers = () =>
    (started ??= (async () => {
      const postgres = await startPostgres(options);
      try {
        return { postgres, pooler: await startPgBouncer(postgres.port) };
      } catch (error) {
        // Nothing started may outlive a failed start.
        postgres.remove();
        throw error;
      }
    })());
  let made = 0;
  const database = async (name: string) => {
    made += 1;
    const unique = `${name}_${made}`;
    const direct = await (await servers()).postgres.createDatabase(unique);
    return { unique, direct };
  };
  return {
    routes: [
      { name: 'PostgreSQL', pooled: false, newDatabase: async (name) => (await database(name)).direct },
      {
        name: 'PostgreSQL through PgBouncer',
        pooled: true,
        newDatabase: async (name) => (await servers()).pooler.url((await database(name)).unique),
      },
    ],
    servers,
    remove: async () => {
      const servers = await started?.catch(() => null);
      if (!servers) return;
      await servers.pooler.remove();
      servers.postgres.remove();
    },
  };
}
