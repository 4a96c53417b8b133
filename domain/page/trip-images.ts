/**
 * Where a trip's images live and what they say: the social card built for each trip page and
 * the site's own card for every other page (1200x630 PNG, src/pages/images/social/). JSON-LD,
 * the page head and any other place that needs a picture of the trip take it from here.
 */
import type { Catalogue, TripPage } from '../catalogue/index.ts';
import { countOf } from '../format.ts';
import { tripFactsLine } from '../catalogue/trip-facts.ts';

export const socialCardSize = { width: 1200, height: 630 } as const;

export function socialImagePath(slug: string): string {
  return `/images/social/${slug}.png`;
}

/** The card of every page that is not a trip page. */
export const siteSocialImagePath = '/images/social/site.png';

/** The card's text in words, for og:image:alt. */
export function socialImageAlt(page: TripPage): string {
  return `${page.trip.name}, ${page.trip.region}: ${tripFactsLine(page)}, with the trip's altitude profile drawn as a mountain ridge.`;
}

export function siteSocialImageAlt(catalogue: Catalogue): string {
  const treks = catalogue.trips.filter((t) => t.trip.type === 'trek').length;
  const expeditions = catalogue.trips.length - treks;
  return `${catalogue.site.operatorName}: ${countOf(treks, 'trek')} and ${countOf(expeditions, 'expedition')} in the Indian Himalaya, with the highest point of each drawn as a mountain range.`;
}
