/** Seat alerts and search alerts (service/alerts/store.ts). */
import type { Migration } from './migration.ts';

export const alertMigrations: Migration[] = [
  {
    // Watches: an email address and what it watches (`subject`: a departure, or a board search),
    // pending until confirmed from the one confirmation email. `until` is the last day a watch is
    // kept; `from_change` the last change recorded before confirmation (only later ones alert it).
    // The links' tokens are stored hashed; every row of a watch goes with it (unsubscribe,
    // expiry). `watch_alerted` claims each change once per watch, in the transaction that queues
    // the alert; `alert_mails` are the emails queued and their delivery, their text and address
    // cleared once delivered.
    version: 61,
    name: 'departure alerts',
    sql: `
      CREATE TABLE watches (
        id text PRIMARY KEY,
        email text NOT NULL,
        email_key text NOT NULL,
        subject text NOT NULL,
        departure_id text,
        party_size integer NOT NULL CHECK (party_size BETWEEN 1 AND 100),
        until date NOT NULL,
        state text NOT NULL CHECK (state IN ('pending', 'confirmed')),
        created_at timestamptz NOT NULL,
        confirmed_at timestamptz,
        from_change bigint NOT NULL DEFAULT 0,
        last_alert_at timestamptz,
        UNIQUE (email_key, subject)
      );
      CREATE INDEX watches_departure ON watches (departure_id) WHERE departure_id IS NOT NULL;
      CREATE INDEX watches_due ON watches (last_alert_at) WHERE state = 'confirmed';
      CREATE TABLE watch_tokens (
        token_hash text PRIMARY KEY,
        watch_id text NOT NULL REFERENCES watches (id) ON DELETE CASCADE,
        purpose text NOT NULL CHECK (purpose IN ('confirm', 'unsubscribe')),
        created_at timestamptz NOT NULL
      );
      CREATE INDEX watch_tokens_watch ON watch_tokens (watch_id);
      CREATE TABLE watch_alerted (
        watch_id text NOT NULL REFERENCES watches (id) ON DELETE CASCADE,
        change_id bigint NOT NULL REFERENCES departure_changes (id) ON DELETE CASCADE,
        mail_id text NOT NULL,
        PRIMARY KEY (watch_id, change_id)
      );
      CREATE TABLE alert_mails (
        id text PRIMARY KEY,
        watch_id text NOT NULL REFERENCES watches (id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('confirm', 'alert')),
        to_address text,
        subject text,
        body_text text,
        body_html text,
        unsubscribe_url text,
        created_at timestamptz NOT NULL,
        delivery_state text NOT NULL DEFAULT 'pending' CHECK (delivery_state IN ('pending', 'sending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        last_attempt_at timestamptz,
        last_error text,
        delivered_at timestamptz,
        delivery_ref text
      );
      CREATE INDEX alert_mails_undelivered ON alert_mails (created_at) WHERE delivery_state <> 'delivered';
      CREATE INDEX alert_mails_watch ON alert_mails (watch_id, kind, created_at)
    `,
  },
];
