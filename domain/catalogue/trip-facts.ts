/**
 * The facts of a trip that every picture and summary of it repeats: how many days it takes and
 * the highest place it reaches. The cards, the illustration, the social card and its alt text
 * all say them in these words.
 */
import { formatDays, formatMetres } from '../format.ts';
import type { TripPage } from './index.ts';

/** The trip's length in days: the published figure, else one day per itinerary day. */
export function tripDays(page: TripPage): number {
  return page.trip.durationDays ?? page.content.itinerary.length;
}

/** The highest place of the trip, named when the itinerary names it. */
export function highestPlace(page: TripPage): { name: string | null; altitudeM: number | null; day: number | null } {
  let best: { name: string | null; altitudeM: number; day: number } | null = null;
  for (const d of page.content.itinerary) {
    if (d.highPoint && (!best || d.highPoint.altitudeM > best.altitudeM))
      best = { name: d.highPoint.name, altitudeM: d.highPoint.altitudeM, day: d.day };
    if (!best || d.endAltitudeM > best.altitudeM) best = { name: d.to, altitudeM: d.endAltitudeM, day: d.day };
  }
  const published = page.trip.summitAltitudeM;
  if (published != null && (!best || published > best.altitudeM))
    return { name: null, altitudeM: published, day: null };
  return best ?? { name: null, altitudeM: published ?? null, day: null };
}

/** The short line the illustration and the social card print: how long, and how high. */
export function tripFactsLine(page: TripPage): string {
  const high = highestPlace(page);
  const parts = [formatDays(tripDays(page))];
  if (high.altitudeM != null)
    parts.push(high.name ? `${high.name} ${formatMetres(high.altitudeM)}` : `up to ${formatMetres(high.altitudeM)}`);
  return parts.join(' · ');
}

/** "Moderate trek · 5 days · Kullu and Lahaul, Himachal Pradesh": what a person chooses a departure's trip by. */
export function tripSearchFacts(page: TripPage): string {
  const { trip } = page;
  return [`${trip.difficulty} ${trip.type}`, formatDays(tripDays(page)), trip.region.replace(/,\s*India$/, '')].join(
    ' · ',
  );
}
