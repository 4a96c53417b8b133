/**
 * The embedded database shared between processes: one process hosts PGlite and serves it on
 * its bridge (a Unix socket in a private folder); others find it through the host file. Real
 * processes, real sockets. Each test's database is a copy of the run's new one
 * (tests/helpers/embedded-template.ts): hosting is the subject here, not creating.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, watch, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bridgeSql } from '../../service/storage/bridge-client.ts';
import { openEmbeddedDatabase } from '../../service/storage/embedded.ts';
import { hostFilePath } from '../../service/storage/host-file.ts';
import type { Sql } from '../../service/storage/sql.ts';
import { copyNewDatabase } from '../helpers/embedded-template.ts';
import { eventually } from '../helpers/eventually.ts';

// Real databases and processes on a shared machine: opening PGlite alone can take seconds, and
// making one (a process killed halfway, made again) a minute on a busy machine.
vi.setConfig({ testTimeout: 300_000 });

const root = path.resolve(import.meta.dirname, '..', '..');
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'departures-embedded-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A separate Node process that opens the database and runs SQL sent to it on stdin. */
function otherProcess(dataDir: string): {
  child: ChildProcess;
  run(sqlText: string): Promise<string>;
  exit(): Promise<void>;
} {
  const script = `
    import { openEmbedded } from ${JSON.stringify(path.join(root, 'service/storage/embedded.ts'))};
    import { createInterface } from 'node:readline';
    const sql = await openEmbedded(${JSON.stringify(dataDir)});
    process.stdout.write('ready\\n');
    for await (const line of createInterface({ input: process.stdin })) {
      if (line === 'exit') { await sql.close(); process.exit(0); }
      try { process.stdout.write(JSON.stringify((await sql.query(line)).rows) + '\\n'); }
      catch (error) { process.stdout.write('error ' + error.message + '\\n'); }
    }`;
  const file = path.join(dir, `client-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, script);
  const child = spawn(process.execPath, [file], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buffered = '';
  child.stdout.on('data', (chunk) => {
    buffered += String(chunk);
    for (let i = buffered.indexOf('\n'); i !== -1; i = buffered.indexOf('\n')) {
      const line = buffered.slice(0, i);
      buffered = buffered.slice(i + 1);
      const next = waiting.shift();
      if (next) next(line);
      else lines.push(line);
    }
  });
  const nextLine = () =>
    new Promise<string>((resolve) => (lines.length ? resolve(lines.shift()!) : waiting.push(resolve)));
  const ready = nextLine();
  return {
    child,
    run: async (sqlText) => {
      expect(await ready).toBe('ready');
      child.stdin.write(`${sqlText}\n`);
      return nextLine();
    },
    exit: async () => {
      child.stdin.write('exit\n');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

describe('the embedded database across processes', () => {
  let host: Sql | undefined;
  afterEach(async () => {
    await host?.close();
    host = undefined;
  });

  it('is hosted by the first process and reached by the others through the host file', async () => {
    const dataDir = path.join(dir, 'shared');
    copyNewDatabase(dataDir);
    host = await openEmbeddedDatabase(dataDir);
    await host.query('CREATE TABLE seats (trip text, n int)');
    const info = JSON.parse(readFileSync(hostFilePath(dataDir), 'utf8'));
    expect(info).toMatchObject({
      pid: process.pid,
      bridge: { path: path.join(dir, 'shared.bridge', `${process.pid}.sock`), token: expect.any(String) },
    });
    expect(info.bridge.port).toBeUndefined(); // no TCP port where Unix sockets exist
    expect(statSync(path.dirname(info.bridge.path)).mode & 0o777).toBe(0o700);
    expect(statSync(info.bridge.path).isSocket()).toBe(true);

    const other = otherProcess(dataDir);
    expect(await other.run("INSERT INTO seats VALUES ('hampta', 4) RETURNING n")).toBe('[{"n":4}]');
    expect((await host.query('SELECT trip, n FROM seats')).rows).toEqual([{ trip: 'hampta', n: 4 }]);
    expect(await other.run('SELECT nope FROM seats')).toBe('error column "nope" does not exist');
    await other.exit();
    // The other process never hosted, so the host file is still this process's.
    expect(JSON.parse(readFileSync(hostFilePath(dataDir), 'utf8')).pid).toBe(process.pid);

    await host.close();
    host = undefined;
    expect(existsSync(hostFilePath(dataDir))).toBe(false);
    expect(existsSync(info.bridge.path)).toBe(false);
  });

  it('puts the socket in a private folder of its own when DATA_DIR is too deep for a socket path', async () => {
    const dataDir = path.join(dir, 'a-folder-name-long-enough'.repeat(4), 'pglite');
    copyNewDatabase(dataDir);
    host = await openEmbeddedDatabase(dataDir);
    const { bridge } = JSON.parse(readFileSync(hostFilePath(dataDir), 'utf8'));
    expect(bridge.path.startsWith(tmpdir())).toBe(true);
    expect(Buffer.byteLength(bridge.path)).toBeLessThanOrEqual(100);
    expect(statSync(path.dirname(bridge.path)).mode & 0o777).toBe(0o700);
    expect((await bridgeSql(bridge).query('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
    await host.close();
    host = undefined;
    expect(existsSync(path.dirname(bridge.path))).toBe(false);
  });

  it("keeps a bridge client's transaction apart from the host's own queries, and rolls back on failure", async () => {
    const dataDir = path.join(dir, 'isolation');
    copyNewDatabase(dataDir);
    host = await openEmbeddedDatabase(dataDir);
    await host.query('CREATE TABLE t (n int)');
    const { bridge } = JSON.parse(readFileSync(hostFilePath(dataDir), 'utf8'));
    const client = bridgeSql(bridge);

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    const transaction = client.transaction(async (tx) => {
      await tx.query('INSERT INTO t VALUES (1)');
      inside();
      await held;
      await tx.query('INSERT INTO t VALUES (2)');
    });
    await entered;
    let hostSaw: unknown;
    const hostRead = host
      .query<{ n: number }>('SELECT count(*)::int AS n FROM t')
      .then((r) => (hostSaw = r.rows[0]?.n));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(hostSaw).toBeUndefined(); // waits for the client's transaction instead of reading into it
    release();
    await transaction;
    await hostRead;
    expect(hostSaw).toBe(2);

    await expect(
      client.transaction(async (tx) => {
        await tx.query('INSERT INTO t VALUES (3)');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect((await host.query('SELECT count(*)::int AS n FROM t')).rows).toEqual([{ n: 2 }]);
  });

  it('returns the same values through the bridge as in process: dates, big integers, bytes', async () => {
    const dataDir = path.join(dir, 'values');
    copyNewDatabase(dataDir);
    host = await openEmbeddedDatabase(dataDir);
    const { bridge } = JSON.parse(readFileSync(hostFilePath(dataDir), 'utf8'));
    const statement =
      "SELECT $1::timestamptz AS at, 12345678901234::bigint AS big, '\\x0102ff'::bytea AS bytes, count(*) AS n, $2::text AS text FROM pg_class";
    const params = [new Date('2030-06-10T04:30:00Z'), 'a "quoted" line\nand more'];
    const local = (await host.query(statement, params)).rows;
    const remote = (await bridgeSql(bridge).query(statement, params)).rows;
    expect(remote).toEqual(local);
    expect(remote[0]).toMatchObject({ at: new Date('2030-06-10T04:30:00Z'), text: 'a "quoted" line\nand more' });
  });

  it('refuses a client without the token', async () => {
    const dataDir = path.join(dir, 'token');
    copyNewDatabase(dataDir);
    host = await openEmbeddedDatabase(dataDir);
    const { bridge } = JSON.parse(readFileSync(hostFilePath(dataDir), 'utf8'));
    await expect(bridgeSql({ ...bridge, token: 'guessed' }).query('SELECT 1')).rejects.toThrow(
      /refused|closed|hung up/,
    );
    const socket = connect({ path: bridge.path });
    socket.write('{"id":1,"op":"query","text":"SELECT 1"}\n');
    const closed = await new Promise<string>((resolve) => {
      let got = '';
      socket.on('data', (d) => (got += String(d)));
      socket.on('close', () => resolve(got));
    });
    expect(closed).toBe('');
  });

  it('takes over from a host that died without cleaning up', async () => {
    const dataDir = path.join(dir, 'takeover');
    copyNewDatabase(dataDir);
    const first = otherProcess(dataDir);
    expect(await first.run('CREATE TABLE t (n int)')).toBe('[]');
    expect(JSON.parse(readFileSync(hostFilePath(dataDir), 'utf8')).pid).toBe(first.child.pid);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    expect(existsSync(hostFilePath(dataDir))).toBe(true); // left behind

    host = await openEmbeddedDatabase(dataDir);
    expect((await host.query('SELECT count(*)::int AS n FROM t')).rows).toEqual([{ n: 0 }]);
    expect(JSON.parse(readFileSync(hostFilePath(dataDir), 'utf8')).pid).toBe(process.pid);
  });

  it('takes over from a host file left empty or cut short (a full disk, a crash), without waiting for it', async () => {
    const dataDir = path.join(dir, 'unreadable');
    copyNewDatabase(dataDir);
    for (const left of ['', '{"pid":12']) {
      writeFileSync(hostFilePath(dataDir), left);
      // No process could have written this whole: it is stale at once, not after the 30 s wait for a host still opening.
      host = await openEmbeddedDatabase(dataDir, { waitMs: 2000 });
      expect((await host.query('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
      expect(JSON.parse(readFileSync(hostFilePath(dataDir), 'utf8')).pid).toBe(process.pid);
      await host.close();
      host = undefined;
    }
  });

  it('makes the database again when the process making it was killed halfway', async () => {
    const dataDir = path.join(dir, 'cut-short');
    const maker = otherProcess(dataDir);
    // PGlite writes PG_VERSION before the rest: killed then, the folder looks like a database and is not one.
    await eventually(async () => expect(existsSync(dataDir)).toBe(true), { withinMs: 60_000, everyMs: 2 });
    await new Promise<void>((resolve) => {
      const kill = () => {
        maker.child.kill('SIGKILL');
        watcher.close();
        resolve();
      };
      const watcher = watch(dataDir, (_event, name) => name === 'PG_VERSION' && kill());
      if (existsSync(path.join(dataDir, 'PG_VERSION'))) kill();
    });
    await new Promise((resolve) => maker.child.once('exit', resolve));
    host = await openEmbeddedDatabase(dataDir, { waitMs: 2000 });
    await host.query('CREATE TABLE t (n int)');
    expect((await host.query('SELECT count(*)::int AS n FROM t')).rows).toEqual([{ n: 0 }]);
  });

  it('becomes the host when the host it was using goes away', async () => {
    const dataDir = path.join(dir, 'handover');
    copyNewDatabase(dataDir);
    const first = otherProcess(dataDir);
    expect(await first.run('CREATE TABLE t (n int)')).toBe('[]');
    const client = await openEmbeddedDatabase(dataDir);
    await client.query('INSERT INTO t VALUES (1)');
    await first.exit();
    expect(existsSync(hostFilePath(dataDir))).toBe(false);
    expect((await client.query('SELECT count(*)::int AS n FROM t')).rows).toEqual([{ n: 1 }]);
    expect(JSON.parse(readFileSync(hostFilePath(dataDir), 'utf8')).pid).toBe(process.pid);
    host = client;
  });
});
