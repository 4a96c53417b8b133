/**
 * What the departure rules need to know about trips: which slugs exist, their length (a new
 * departure's default end date) and their price (the fallback shown with a departure). The
 * site reads it from the catalogue; the CLI reads the trip files directly, without a build
 * (trip-files.ts).
 */
import { bySlug } from '../../domain/catalogue/by-slug.ts';
import type { Catalogue } from '../../domain/catalogue/index.ts';

export interface KnownTrip {
  slug: string;
  name: string;
  durationDays: number | null;
  priceInr: number | null;
}

export function knownTrips(catalogue: Catalogue): KnownTrip[] {
  return catalogue.trips.map(({ trip }) => ({
    slug: trip.slug,
    name: trip.name,
    durationDays: trip.durationDays ?? null,
    priceInr: trip.priceInr ?? null,
  }));
}

/** The known trip with this slug (an index of the list, made once). */
export function knownTrip(trips: readonly KnownTrip[], slug: string | null | undefined): KnownTrip | undefined {
  return bySlug(trips, (trip) => trip.slug, slug);
}
