/**
 * The operations CLI against embedded storage hosted by another process (as while `npm start`
 * runs), against a real PostgreSQL server directly and through PgBouncer in transaction mode,
 * by the direct address given beside a pooled one, and alone, with its exit codes. The command line
 * itself (a process of its own, `npm run departures`, its exit codes, the database released when
 * it exits) runs as a real child process; the many cases of what the commands do and refuse run
 * through the command's entry function in this process, the same code with the same arguments.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { hostFilePath } from '../../service/storage/host-file.ts';
import { seedEmbeddedDatabase } from '../helpers/embedded-template.ts';
import { freePort, projectRoot } from '../helpers/project.ts';
import { runCli, runCommand } from './cli.ts';
import { postgresRoutes } from './postgres.ts';

// Real databases and processes on a shared machine: opening PGlite alone can take seconds.
vi.setConfig({ testTimeout: 120_000 });

let site: string;
let scratch: string;
const postgres = postgresRoutes();
/** A database for each PostgreSQL storage below, by its name. */
const databases = new Map<string, string>();
/** A port nothing listens on: a pooled address that cannot be reached. */
let closedPort: number;

beforeAll(async () => {
  site = inject('fixtureSite');
  scratch = mkdtempSync(path.join(tmpdir(), 'departures-cli-'));
  const [direct, pooled] = postgres.routes;
  databases.set('direct', await direct!.newDatabase('departures_cli'));
  databases.set('pooled', await pooled!.newDatabase('departures_cli'));
  databases.set('beside', await direct!.newDatabase('departures_cli'));
  closedPort = await freePort();
}, 120_000);
afterAll(async () => {
  await postgres.remove();
  rmSync(scratch, { recursive: true, force: true });
});

/** Another process hosting the embedded database in `dataDir`, as `npm start` would, until `stop`. */
async function hostInAnotherProcess(dataDir: string): Promise<{ stop(): Promise<void> }> {
  const embedded = path.join(projectRoot, 'service', 'storage', 'embedded.ts');
  const script = `
    import { openEmbeddedDatabase } from ${JSON.stringify(embedded)};
    const sql = await openEmbeddedDatabase(${JSON.stringify(path.join(dataDir, 'pglite'))});
    process.stdout.write('ready\\n');
    process.stdin.on('end', () => sql.close().then(() => process.exit(0)));
    process.stdin.resume();`;
  const child = spawn(process.execPath, ['--input-type=module', '--eval', script], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const [ready] = await Promise.race([once(child.stdout, 'data'), once(child, 'exit')]);
  expect(String(ready)).toBe('ready\n');
  return {
    stop: async () => {
      const exited = once(child, 'exit');
      child.stdin.end();
      await exited;
    },
  };
}

const storages = [
  // The database is hosted by another process, as `npm start` would host it: each run of the tool goes through the bridge.
  {
    name: 'embedded storage while another process hosts it',
    env: () => ({ OPERATIONAL_STORAGE: 'embedded', DATA_DIR: path.join(scratch, 'data') }),
    host: true,
  },
  {
    name: 'a PostgreSQL server',
    env: (): Record<string, string> => ({ OPERATIONAL_STORAGE: 'postgres', DATABASE_URL: databases.get('direct')! }),
    host: false,
  },
  {
    name: 'a PostgreSQL server through PgBouncer',
    env: (): Record<string, string> => ({ OPERATIONAL_STORAGE: 'postgres', DATABASE_URL: databases.get('pooled')! }),
    host: false,
  },
  // The pooled address leads nowhere: only the direct one, which the tools prefer, works.
  {
    name: 'the direct address given beside a pooled one (DATABASE_URL_UNPOOLED)',
    env: (): Record<string, string> => ({
      OPERATIONAL_STORAGE: 'postgres',
      DATABASE_URL: `postgres://postgres@127.0.0.1:${closedPort}/departures_cli`,
      DATABASE_URL_UNPOOLED: databases.get('beside')!,
    }),
    host: false,
  },
];

describe.each(storages)('npm run departures against $name', (storage) => {
  const cli = (...args: string[]) => runCommand(site, args, storage.env());
  let host: { stop(): Promise<void> } | undefined;
  beforeAll(async () => {
    if (!storage.host) return;
    // Private, as the server leaves its data folder (docs/security.md).
    mkdirSync(path.join(scratch, 'data'), { mode: 0o700 });
    seedEmbeddedDatabase(path.join(scratch, 'data'));
    host = await hostInAnotherProcess(path.join(scratch, 'data'));
  }, 120_000);
  afterAll(() => host?.stop());

  it('adds, lists, updates, hides and publishes, with status following seats', async () => {
    const added = await cli(
      'add',
      '--trip',
      'sample-trek',
      '--start',
      '2031-06-10',
      '--seats',
      '12',
      '--price',
      '18,500',
      '--note',
      'First of the season',
    );
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain(
      'Added sample-trek-2031-06-10: sample-trek, 2031-06-10 to 2031-06-11, open, 12 of 12 seats left',
    );

    const sold = await cli('update', 'sample-trek-2031-06-10', '--seats-left', '0');
    expect(sold.code).toBe(0);
    expect(sold.stdout).toContain('sold_out, 0 of 12 seats left');
    expect((await cli('update', 'sample-trek-2031-06-10', '--seats-left', '2')).stdout).toContain(
      'filling, 2 of 12 seats left',
    );

    expect((await cli('hide', 'sample-trek-2031-06-10')).stdout).toContain('Hidden: sample-trek-2031-06-10');
    const listed = await cli('list', '--trip', 'sample-trek', '--json');
    expect(listed.code).toBe(0);
    const departure = JSON.parse(listed.stdout).find((d: { id: string }) => d.id === 'sample-trek-2031-06-10');
    expect(departure).toEqual({
      id: 'sample-trek-2031-06-10',
      tripSlug: 'sample-trek',
      startDate: '2031-06-10',
      endDate: '2031-06-11',
      status: 'filling',
      priceInr: 18500,
      seatsTotal: 12,
      seatsLeft: 2,
      note: 'First of the season',
      published: false,
    });
    expect((await cli('publish', 'sample-trek-2031-06-10')).code).toBe(0);
    const table = await cli('list', '--trip', 'sample-trek');
    expect(table.stdout).toMatch(
      /sample-trek-2031-06-10 +sample-trek +2031-06-10 +2031-06-11 +filling +2\/12 +₹18,500 +yes +First of the season/,
    );
    // Sold out, the first thing an operator types when a departure fills: its seats left go to 0, and it says so.
    const soldOut = await cli('update', 'sample-trek-2031-06-10', '--status', 'sold_out');
    expect(soldOut.stderr).toBe('');
    expect(soldOut.code).toBe(0);
    expect(soldOut.stdout).toContain('sold_out, 0 of 12 seats left');
    expect(soldOut.stdout).toContain('Seats left are 0 now: sold_out means no seats are left.');
  });

  it('refuses bad input with exit code 1, naming the option or column, and changes nothing', async () => {
    const before = (await cli('export')).stdout;
    const cases: [string[], string][] = [
      [
        ['add', '--trip', 'no-such-trip', '--start', '2031-06-10'],
        '--trip (tripSlug): no trip has the slug "no-such-trip"',
      ],
      [
        ['add', '--trip', 'sample-trek', '--start', '2031-02-30'],
        '--start (startDate): "2031-02-30" is not a real date',
      ],
      [
        ['add', '--trip', 'sample-trek', '--start', '2031-06-10', '--end', '2031-06-01'],
        '--end (endDate): 2031-06-01 is before the start date 2031-06-10',
      ],
      [
        ['add', '--trip', 'sample-trek', '--start', '2031-06-10', '--seats', '12', '--seats-left', '14'],
        '--seats-left (seatsLeft): 14 is more than the 12 seats in total',
      ],
      [
        ['add', '--trip', 'sample-trek', '--start', '2031-06-10', '--seats', 'twelve'],
        '--seats (seatsTotal): must be a whole number',
      ],
      [['add', '--start', '2031-06-10'], '--trip (tripSlug): is required'],
      [
        ['update', 'sample-trek-2031-06-10', '--status', 'sold_out', '--seats-left', '2'],
        '--status (status): sold_out needs 0 seats left, but 2 are left',
      ],
      [
        ['update', 'sample-trek-2031-06-10', '--status', 'full'],
        '--status (status): must be one of "open", "filling", "sold_out", "cancelled"',
      ],
      [['update', 'no-such-departure', '--seats-left', '1'], 'id: no departure has the id "no-such-departure"'],
      [['update', 'sample-trek-2031-06-10'], 'update: nothing to change'],
      [['hide', 'no-such-departure'], 'id: no departure has the id "no-such-departure"'],
      [
        ['add', '--trip', 'sample-trek', '--start', '2031-06-10', '--colour', 'red'],
        "options: Unknown option '--colour'",
      ],
      [['launch'], 'launch: is not a command'],
      [['list', '--seats', '3'], '--seats: is not an option of list'],
    ];
    for (const [args, message] of cases) {
      const result = await cli(...args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr, args.join(' ')).toContain('Nothing was changed');
      expect(result.stderr, args.join(' ')).toContain(message);
    }
    expect((await cli('export')).stdout).toBe(before);
  });

  it('imports a CSV file all or nothing and exports what it imported', async () => {
    const good = path.join(scratch, `good-${storage.env().OPERATIONAL_STORAGE}.csv`);
    writeFileSync(
      good,
      '\uFEFFtripSlug,startDate,endDate,seatsTotal,seatsLeft,priceInr,note\r\nsample-expedition,2031-07-01,2031-07-21,8,8,"2,45,000","Summit window, 3 days"\r\nsample-trek,2031-09-01,,10,0,,\r\n',
    );
    const imported = await cli('import', good);
    expect(imported.stderr).toBe('');
    expect(imported.stdout).toContain('2 added, 0 updated, 0 unchanged');

    const bad = path.join(scratch, 'bad.csv');
    writeFileSync(
      bad,
      'tripSlug,startDate,seatsTotal,seatsLeft\nsample-trek,2031-10-01,10,4\nsample-trek,2031-10-02,10,eleven\nsample-trek,2031-10-03,10,11\n',
    );
    const refused = await cli('import', bad);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('line 3, seatsLeft: must be a whole number');
    const refusedRules = await cli('import', path.join(scratch, 'missing.csv'));
    expect(refusedRules.code).toBe(1);
    writeFileSync(
      bad,
      'tripSlug,startDate,seatsTotal,seatsLeft\nsample-trek,2031-10-01,10,4\nsample-trek,2031-10-03,10,11\n',
    );
    const refusedRow = await cli('import', bad);
    expect(refusedRow.code).toBe(1);
    expect(refusedRow.stderr).toContain('line 3, seatsLeft: 11 is more than the 10 seats in total');
    writeFileSync(bad, 'trip,start\nsample-trek,2031-10-01\n');
    expect((await cli('import', bad)).stderr).toContain('unknown column(s) "trip", "start"');

    const file = path.join(scratch, `export-${storage.env().OPERATIONAL_STORAGE}.csv`);
    expect((await cli('export', file)).code).toBe(0);
    const csv = readFileSync(file, 'utf8');
    expect(csv.split('\r\n')[0]).toBe(
      'id,tripSlug,startDate,endDate,status,priceInr,seatsTotal,seatsLeft,note,published',
    );
    expect(csv).toContain(
      'sample-expedition-2031-07-01,sample-expedition,2031-07-01,2031-07-21,open,245000,8,8,"Summit window, 3 days",yes',
    );
    expect(csv).toContain('sample-trek-2031-09-01,sample-trek,2031-09-01,2031-09-02,sold_out,,10,0,,yes');
    expect(csv).not.toContain('2031-10-01');
    expect((await cli('import', file)).stdout).toMatch(/0 added, 0 updated, \d+ unchanged/);
  });
});

describe('npm run departures with nothing else running', () => {
  it('opens the embedded database itself and releases it when done', async () => {
    const env = { OPERATIONAL_STORAGE: 'embedded', DATA_DIR: path.join(scratch, 'alone') };
    const added = await runCli(
      site,
      ['add', '--trip', 'sample-expedition', '--start', '2031-08-01', '--end', '2031-08-20', '--seats', '8'],
      env,
    );
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(existsSync(hostFilePath(path.join(env.DATA_DIR, 'pglite')))).toBe(false);
    const listed = await runCli(site, ['list', '--json'], env);
    expect(JSON.parse(listed.stdout).map((d: { id: string }) => d.id)).toEqual(['sample-expedition-2031-08-01']);
    // The database it created is the site account's alone (docs/security.md).
    const open = readdirSync(env.DATA_DIR, { recursive: true, withFileTypes: true })
      .map((entry) => path.join(entry.parentPath, entry.name))
      .concat(env.DATA_DIR)
      .filter((file) => (lstatSync(file).mode & 0o077) !== 0 && !lstatSync(file).isSymbolicLink());
    expect(open).toEqual([]);
  }, 180_000);
});

describe('npm run departures when storage cannot be used', () => {
  it('exits with 2 and says why when the PostgreSQL server refuses, without waiting for the storage bound', async () => {
    const port = await freePort();
    // The bound at its longest: a command that waited for it would take 30 s, however quiet the machine.
    const storageTimeoutMs = 30_000;
    const result = await runCommand(site, ['list'], {
      OPERATIONAL_STORAGE: 'postgres',
      DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/none`,
      STORAGE_TIMEOUT_MS: String(storageTimeoutMs),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Storage could not be used: .*ECONNREFUSED/);
    expect(result.ms).toBeLessThan(storageTimeoutMs);
  });

  it('exits with 2 when storage is off, and prints help with 0', async () => {
    const off = await runCommand(site, ['list'], { OPERATIONAL_STORAGE: 'off' });
    expect(off.code).toBe(2);
    expect(off.stderr).toContain('OPERATIONAL_STORAGE is off');
    const help = await runCli(site, ['help'], { OPERATIONAL_STORAGE: 'off' }, { viaNpm: true });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: npm run departures -- <command>');
  });
});
