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
  {
    // Agent registrations (service/agent-auth): who registered, the pending confirmations by a
    // person, single-use assertion ids and revoked access tokens. Secrets are stored hashed.
    version: 20,
    name: 'agent registrations',
    sql: `
      CREATE TABLE agent_registrations (
        id text PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('anonymous', 'identity_assertion', 'verified_email')),
        status text NOT NULL CHECK (status IN ('pending', 'active', 'revoked')),
        issuer text,
        subject text,
        client_id text,
        email_hint text,
        created_at timestamptz NOT NULL,
        confirmed_at timestamptz,
        revoked_at timestamptz,
        CHECK ((issuer IS NULL) = (subject IS NULL))
      );
      CREATE INDEX agent_registrations_subject ON agent_registrations (issuer, subject) WHERE issuer IS NOT NULL;
      CREATE TABLE agent_claims (
        registration_id text PRIMARY KEY REFERENCES agent_registrations (id) ON DELETE CASCADE,
        claim_token_hash text NOT NULL UNIQUE,
        user_code_hash text NOT NULL UNIQUE,
        user_code_expires_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        interval_seconds integer NOT NULL CHECK (interval_seconds > 0),
        last_polled_at timestamptz,
        confirmed_at timestamptz,
        redeemed_at timestamptz
      );
      CREATE INDEX agent_claims_expiry ON agent_claims (expires_at);
      CREATE TABLE agent_used_assertions (
        issuer text NOT NULL,
        jti text NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (issuer, jti)
      );
      CREATE INDEX agent_used_assertions_expiry ON agent_used_assertions (expires_at);
      CREATE TABLE agent_revoked_tokens (
        jti text PRIMARY KEY,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX agent_revoked_tokens_expiry ON agent_revoked_tokens (expires_at)
    `,
  },
  {
    // Enquiries: the visitor's optional email address, and the call-back time the site promised
    // when the enquiry was taken (the thank-you page and every delivery quote it).
    version: 30,
    name: 'enquiry email and call-back promise',
    sql: `
      ALTER TABLE enquiries ADD COLUMN email text;
      ALTER TABLE enquiries ADD COLUMN callback_promise text
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
