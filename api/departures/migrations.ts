/**
 * Versioned schema of operational storage. Append a migration to change the schema; never
 * edit one that has shipped. Each runs once, in order, inside a transaction.
 */
import type { Sql } from './sql.ts';

export const migrations: { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'departures',
    sql: `
      CREATE TABLE departures (
        id text PRIMARY KEY CHECK (id ~ '^[a-z0-9-]+$'),
        trip_slug text NOT NULL CHECK (trip_slug ~ '^[a-z0-9-]+$'),
        start_date date NOT NULL,
        end_date date NOT NULL,
        status text NOT NULL CHECK (status IN ('open', 'filling', 'sold_out', 'cancelled')),
        price_inr integer CHECK (price_inr IS NULL OR price_inr > 0),
        seats_total integer CHECK (seats_total IS NULL OR seats_total >= 0),
        seats_left integer CHECK (seats_left IS NULL OR seats_left >= 0),
        note text,
        published boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (end_date >= start_date),
        CHECK (seats_left IS NULL OR seats_total IS NULL OR seats_left <= seats_total)
      );
      CREATE INDEX departures_published_start ON departures (start_date, id) WHERE published;
      CREATE INDEX departures_trip ON departures (trip_slug, start_date);
    `,
  },
  {
    // Booking enquiries, kept before delivery is attempted so none is lost when mail is down.
    version: 10,
    name: 'enquiries',
    sql: `
      CREATE TABLE enquiries (
        id text PRIMARY KEY,
        trip_slug text NOT NULL CHECK (trip_slug ~ '^[a-z0-9-]+$'),
        trip_name text NOT NULL,
        trip_url text NOT NULL,
        name text NOT NULL,
        phone text NOT NULL,
        group_size integer NOT NULL CHECK (group_size >= 1),
        preferred_departure text,
        message text,
        created_at timestamptz NOT NULL,
        delivery_state text NOT NULL DEFAULT 'pending' CHECK (delivery_state IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        last_attempt_at timestamptz,
        last_error text,
        delivered_at timestamptz,
        delivery_ref text,
        idempotency_key text NOT NULL UNIQUE
      );
      CREATE INDEX enquiries_undelivered ON enquiries (created_at) WHERE delivery_state <> 'delivered'
    `,
  },
];

export async function migrate(sql: Sql): Promise<number[]> {
  await sql.query(`CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  const applied: number[] = [];
  for (const migration of migrations) {
    const done = await sql.transaction(async (tx) => {
      // The lock makes concurrent starts (two instances) apply each migration once.
      await tx.query('LOCK TABLE schema_migrations IN EXCLUSIVE MODE');
      const { rows } = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
      if (rows.length > 0) return false;
      for (const statement of migration.sql.split(';').map((s) => s.trim()).filter(Boolean)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      return true;
    });
    if (done) applied.push(migration.version);
  }
  return applied;
}
