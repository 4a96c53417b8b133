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
];
