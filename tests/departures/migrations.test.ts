/**
 * Migrations from an empty database by several processes at once (two Node hosts, instances of a
 * function, a host and the operator's tool starting together), directly and through PgBouncer in
 * transaction mode: each migration is applied once, by one of them, and every process ends with
 * the whole schema and no error. The processes connect first and start migrating on one signal,
 * so they really meet (tests/departures/migrating-process.ts).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { migrate, migrations } from '../../service/storage/migrations/index.ts';
import { openServer } from '../../service/storage/postgres.ts';
import { postgresRoutes, type PostgresRoute } from './postgres.ts';

vi.setConfig({ testTimeout: 120_000 });

const postgres = postgresRoutes();
afterAll(() => postgres.remove());

interface Migrating {
  ready: Promise<void>;
  go(): void;
  done: Promise<{ applied?: number[]; error?: string }>;
}

function migratingProcess(databaseUrl: string): Migrating {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'migrating-process.ts'), databaseUrl], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  let said: () => void;
  const ready = new Promise<void>((resolve) => (said = resolve));
  child.stdout.on('data', (d) => {
    output += String(d);
    if (output.startsWith('ready\n')) said();
  });
  child.stderr.on('data', (d) => (errors += String(d)));
  const done = new Promise<{ applied?: number[]; error?: string }>((resolve) =>
    child.once('close', () => {
      const line = output.split('\n').find((l) => l.startsWith('{'));
      resolve(line ? JSON.parse(line) : { error: `no answer: ${errors}` });
    }),
  );
  return { ready, go: () => child.stdin.end('go\n'), done };
}

describe.each(postgres.routes)('migrations from an empty database on $name', (route: PostgresRoute) => {
  it('two processes starting at once apply each migration once, and both end with the whole schema', async () => {
    const every = migrations.map((m) => m.version);
    // A few rounds: the processes meet at a slightly different point each time.
    for (let round = 1; round <= 4; round += 1) {
      const url = await route.newDatabase('migrate_at_once');
      const processes = [migratingProcess(url), migratingProcess(url)];
      await Promise.all(processes.map((p) => p.ready));
      for (const p of processes) p.go();
      const results = await Promise.all(processes.map((p) => p.done));
      expect(results.map((r) => r.error)).toEqual([undefined, undefined]);
      expect(results.flatMap((r) => r.applied ?? []).sort((a, b) => a - b)).toEqual(every);
      const sql = await openServer(url);
      try {
        const { rows } = await sql.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
        expect(rows.map((r) => r.version)).toEqual(every);
      } finally {
        await sql.close();
      }
    }
  });
});

describe('migrations beside a pooled address', () => {
  it('go through the direct address when one is given, on a connection of their own', async () => {
    const [direct, pooled] = postgres.routes;
    // Two databases stand for the one database's two addresses, so where the schema lands shows which was used.
    const sql = await openServer(await pooled!.newDatabase('pooled_side'), {
      directUrl: await direct!.newDatabase('direct_side'),
    });
    try {
      expect(await migrate(sql)).toEqual(migrations.map((m) => m.version));
      await expect(sql.query('SELECT version FROM schema_migrations')).rejects.toMatchObject({ code: '42P01' });
      await sql.direct!(async (db) =>
        expect((await db.query('SELECT count(*)::int AS n FROM schema_migrations')).rows).toEqual([
          { n: migrations.length },
        ]),
      );
    } finally {
      await sql.close();
    }
  });
});
