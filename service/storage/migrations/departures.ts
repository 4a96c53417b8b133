/** The departures the operations team publishes (service/departures/store.ts). */
import type { Migration } from './migration.ts';

export const departuresMigrations: Migration[] = [
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
    // What changed, and when (service/departures/changes.ts): one row per write of a published
    // departure, with its kinds and the departure before (null when new) and after. The alert job
    // and the feeds read it; rows go 90 days after they were recorded (service/alerts/job.ts).
    version: 60,
    name: 'departure changes',
    sql: `
      CREATE TABLE departure_changes (
        id bigserial PRIMARY KEY,
        departure_id text NOT NULL,
        trip_slug text NOT NULL,
        kinds text[] NOT NULL CHECK (cardinality(kinds) > 0),
        before jsonb,
        after jsonb NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX departure_changes_trip ON departure_changes (trip_slug, id);
      CREATE INDEX departure_changes_recorded ON departure_changes (recorded_at)
    `,
  },
];
