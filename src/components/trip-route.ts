/**
 * What a trip URL resolves to: the trip page, a redirect to the right section when the slug
 * belongs to the other type, or nothing (the route answers 404).
 */
import type { TripPage } from '../../service/catalogue/index.ts';
import type { Trip } from '../schemas/trip.ts';
import { getCatalogue } from '../lib/catalogue.ts';

export type TripLookup = { kind: 'page'; page: TripPage } | { kind: 'moved'; path: string } | { kind: 'missing' };

export async function lookupTrip(type: Trip['type'], slug: string | undefined): Promise<TripLookup> {
  const { trips } = await getCatalogue();
  const page = trips.find((t) => t.trip.slug === slug);
  if (!page) return { kind: 'missing' };
  return page.trip.type === type ? { kind: 'page', page } : { kind: 'moved', path: page.path };
}
