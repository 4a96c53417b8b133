/**
 * The "how to reach" answer of a trip: the editor's text when the record has one, otherwise what
 * the itinerary itself says about where the trip starts and ends, so no page is left without it.
 */
import type { TripContent } from '../schemas/trip.ts';

export function gettingThereText(content: Pick<TripContent, 'gettingThere' | 'itinerary' | 'startEnd'>): string {
  if (content.gettingThere) return content.gettingThere.trim();
  const first = content.itinerary[0];
  const last = content.itinerary.at(-1);
  const start = first?.from ?? 'the start point';
  const end = last?.to ?? start;
  const ends = end === start ? `and ends there` : `and ends in ${end}`;
  return `The trip starts in ${start} ${ends}${content.startEnd ? ` (${content.startEnd})` : ''}. Day 1 of the itinerary says where we meet, and the lists of what is and is not included say which transport the price covers.`;
}
