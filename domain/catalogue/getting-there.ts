/**
 * The "how to reach" answer of a trip: the parts of the editor's record in reading order, each
 * with its label, and the numbers of the references they come from, so the page and the
 * Markdown twin say the same thing the same way.
 */
import type { TripContent } from '../schemas/trip.ts';

export interface GettingThereLine {
  label: string;
  text: string;
}

const labels = {
  airport: 'Nearest airport',
  railhead: 'Nearest railhead',
  road: 'By road',
  pickup: 'Pickup',
  stayBefore: 'The night before',
  stayAfter: 'After the trip',
} as const;

export function gettingThereLines(content: Pick<TripContent, 'gettingThere'>): GettingThereLine[] {
  return (Object.keys(labels) as (keyof typeof labels)[]).map((key) => ({
    label: labels[key],
    text: content.gettingThere[key].trim(),
  }));
}

/** The 1-based numbers, in the trip's reference list, of the sources the directions rest on. */
export function gettingThereReferenceNumbers(content: Pick<TripContent, 'gettingThere' | 'sources'>): number[] {
  return content.gettingThere.sources
    .map((url) => content.sources.findIndex((s) => s.url === url) + 1)
    .filter((n) => n > 0);
}
