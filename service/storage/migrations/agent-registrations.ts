/** Agent registration (service/agent-auth/registry.ts). */
import type { Migration } from './migration.ts';

export const agentRegistrationMigrations: Migration[] = [
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
];
