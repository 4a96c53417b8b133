/**
 * Versioned schema of operational storage, one list per owner (departures, enquiries, agent
 * registration), run as one sequence by version: every store migrates the whole schema, so
 * whichever store opens the database first leaves it complete. Append a migration to its
 * owner's list, with a version above every other, to change the schema; never edit one that has
 * shipped. Each runs once, in order, inside a transaction.
 */
import type { Sql } from '../sql.ts';
import { agentRegistrationMigrations } from './agent-registrations.ts';
import { departuresMigrations } from './departures.ts';
import { enquiriesMigrations } from './enquiries.ts';
import type { Migration } from './migration.ts';

export const migrations: Migration[] = [
  ...departuresMigrations,
  ...enquiriesMigrations,
  ...agentRegistrationMigrations,
].sort((a, b) => a.version - b.version);

export async function migrate(sql: Sql): Promise<number[]> {
  await sql.query(
    `CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
  );
  const applied: number[] = [];
  for (const migration of migrations) {
    const done = await sql.transaction(async (tx) => {
      // The lock makes concurrent starts (two instances) apply each migration once.
      await tx.query('LOCK TABLE schema_migrations IN EXCLUSIVE MODE');
      const { rows } = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
      if (rows.length > 0) return false;
      for (const statement of migration.sql
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean))
        await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      return true;
    });
    if (done) applied.push(migration.version);
  }
  return applied;
}
