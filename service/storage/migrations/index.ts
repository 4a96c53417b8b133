/**
 * Versioned schema of operational storage, one list per owner (departures, enquiries, agent
 * registration, alerts), run as one sequence by version: every store migrates the whole schema, so
 * whichever store opens the database first leaves it complete. Append a migration to its
 * owner's list, with a version above every other, to change the schema; never edit one that has
 * shipped. Each runs once, in order.
 *
 * Several processes may start on an empty database at once (instances of a function, two Node
 * hosts, a host and the operator's tool). So the missing migrations run in one transaction that
 * first takes a transaction-level advisory lock: the others wait for it, then find the schema
 * complete. The lock ends with the transaction, which a pooler in transaction mode allows (a
 * session lock would be held by whichever server connection the pooler happened to give). A
 * schema that is already complete costs one read and no lock; only a missing migration opens the
 * direct address, when the settings give one (Sql.direct).
 */
import type { Sql } from '../sql.ts';
import { agentRegistrationMigrations } from './agent-registrations.ts';
import { alertMigrations } from './alerts.ts';
import { departuresMigrations } from './departures.ts';
import { enquiriesMigrations } from './enquiries.ts';
import type { Migration } from './migration.ts';

export const migrations: Migration[] = [
  ...departuresMigrations,
  ...enquiriesMigrations,
  ...agentRegistrationMigrations,
  ...alertMigrations,
].sort((a, b) => a.version - b.version);

/** The advisory lock migrations take: any number, the same in every process. */
const migrationLock = 20_260_801;

/** PostgreSQL's code for a relation that does not exist. */
const undefinedTable = '42P01';

/** The versions applied, or none when the database is new. */
async function appliedVersions(sql: Pick<Sql, 'query'>): Promise<Set<number>> {
  try {
    const { rows } = await sql.query<{ version: number }>('SELECT version FROM schema_migrations');
    return new Set(rows.map((r) => r.version));
  } catch (error) {
    if ((error as { code?: string }).code === undefinedTable) return new Set();
    throw error;
  }
}

async function applyMissing(sql: Pick<Sql, 'transaction'>): Promise<number[]> {
  return sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [migrationLock]);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = await appliedVersions(tx);
    const applied: number[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      for (const statement of migration.sql
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean))
        await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    return applied;
  });
}

/** Brings the schema up to date; the versions this call applied (none when another process did). */
export async function migrate(sql: Sql): Promise<number[]> {
  const done = await appliedVersions(sql);
  if (migrations.every((m) => done.has(m.version))) return [];
  return sql.direct ? sql.direct(applyMissing) : applyMissing(sql);
}

/**
 * A store's `ready()`: migrates `sql` once, every caller sharing the same promise; a failure is
 * forgotten, so the next call tries again.
 */
export function migrateOnce(sql: Sql): () => Promise<void> {
  let ready: Promise<void> | undefined;
  return () =>
    (ready ??= migrate(sql).then(
      () => undefined,
      (error: unknown) => {
        ready = undefined;
        throw error;
      },
    ));
}
