/** Booking enquiries (service/bookings/store.ts). */
import type { Migration } from './migration.ts';

export const enquiriesMigrations: Migration[] = [
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
    // Enquiries: the visitor's optional email address, and the call-back time the site promised
    // when the enquiry was taken (the thank-you page and every delivery quote it).
    version: 30,
    name: 'enquiry email and call-back promise',
    sql: `
      ALTER TABLE enquiries ADD COLUMN email text;
      ALTER TABLE enquiries ADD COLUMN callback_promise text
    `,
  },
  {
    // The requests that took enquiries, by their idempotency key (an Idempotency-Key header, the
    // form's one-time token, or a plain form's own fields): a request sent again with the same key
    // is answered from here, so a retry never makes a second enquiry (service/bookings/idempotency.ts).
    // `answer` is the first answer given, once delivery has been tried. Kept 24 hours.
    version: 40,
    name: 'enquiry requests by idempotency key',
    sql: `
      CREATE TABLE enquiry_requests (
        key text PRIMARY KEY,
        fingerprint text NOT NULL,
        enquiry_id text NOT NULL REFERENCES enquiries (id) ON DELETE CASCADE,
        answer text CHECK (answer IN ('received', 'delivery_failed', 'delivery_unavailable')),
        created_at timestamptz NOT NULL
      );
      CREATE INDEX enquiry_requests_created ON enquiry_requests (created_at)
    `,
  },
  {
    // The team's own state of an enquiry, set with `npm run enquiries -- handle <id>`: when it was
    // marked handled (null while it is open) and the note they left with it.
    version: 50,
    name: 'enquiries handled by the team',
    sql: `
      ALTER TABLE enquiries ADD COLUMN handled_at timestamptz;
      ALTER TABLE enquiries ADD COLUMN handled_note text;
      CREATE INDEX enquiries_open ON enquiries (created_at) WHERE handled_at IS NULL
    `,
  },
];
