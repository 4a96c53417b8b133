/**
 * Finding a trip: region, difficulty and length. The index pages filter their cards without
 * JavaScript (radio buttons and the CSS of `finderStyles`); /trip-finder.js keeps the choice in
 * the address (`?region=Ladakh&difficulty=Moderate&days=short`), so a filtered view can be shared,
 * and carries it into the link to the departure search (`searchQuery`).
 */
import type { TripPage } from '../../domain/catalogue/index.ts';
import { tripDays } from '../../domain/catalogue/trip-facts.ts';
import { difficulties } from '../../domain/schemas/vocabulary.ts';

type Difficulty = (typeof difficulties)[number];

/** States and union territories of the Indian Himalaya, matched inside a trip's region text. */
const himalayanStates = [
  'Ladakh',
  'Jammu and Kashmir',
  'Himachal Pradesh',
  'Uttarakhand',
  'Sikkim',
  'West Bengal',
  'Arunachal Pradesh',
] as const;

export const durationBands = [
  { id: 'short', label: 'Up to 6 days', min: 1, max: 6 },
  { id: 'week', label: '7 to 10 days', min: 7, max: 10 },
  { id: 'long', label: '11 days or more', min: 11, max: Infinity },
] as const;
type DurationBand = (typeof durationBands)[number];

export interface FinderOptions {
  regions: string[];
  difficulties: readonly Difficulty[];
  durations: readonly DurationBand[];
}

export function regionsOf(page: TripPage): string[] {
  return himalayanStates.filter((state) => page.trip.region.includes(state));
}

/** The choices worth offering: only regions and difficulties some trip in the list has. */
export function finderOptions(pages: readonly TripPage[]): FinderOptions {
  const regions = himalayanStates.filter((state) => pages.some((p) => regionsOf(p).includes(state)));
  return {
    regions,
    difficulties: difficulties.filter((d) => pages.some((p) => p.trip.difficulty === d)),
    durations: durationBands.filter((band) => pages.some((p) => tripDays(p) >= band.min && tripDays(p) <= band.max)),
  };
}

/** Easiest first, then shortest: the order a newcomer reads a list of trips in. */
export function byDifficultyThenLength(a: TripPage, b: TripPage): number {
  return (
    difficulties.indexOf(a.trip.difficulty) - difficulties.indexOf(b.trip.difficulty) ||
    tripDays(a) - tripDays(b) ||
    a.trip.name.localeCompare(b.trip.name)
  );
}

/** A value as a token for HTML attributes and CSS selectors: "Himachal Pradesh" → "himachal-pradesh". */
export function filterToken(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The tokens a trip card carries for each filter. */
export function cardFilters(page: TripPage): { region: string; difficulty: string; days: string } {
  const days = tripDays(page);
  return {
    region: regionsOf(page).map(filterToken).join(' '),
    difficulty: filterToken(page.trip.difficulty),
    days: durationBands.find((b) => days >= b.min && days <= b.max)?.id ?? '',
  };
}

/** Every value a filter can take, as tokens: the closed lists above, so the CSS is the same for any catalogue. */
export const filterValues = {
  region: himalayanStates.map(filterToken),
  difficulty: difficulties.map(filterToken),
  days: durationBands.map((b) => b.id),
} as const;

/**
 * The CSS that hides the cards a checked filter excludes (served as /styles/trip-finder.css).
 * One rule per value, with `:has()`, so the filters need no script.
 */
export function finderStyles(): string {
  const rules = Object.entries(filterValues).flatMap(([name, values]) =>
    values.map(
      (value) =>
        `.trip-index:has(input[name="${name}"][value="${value}"]:checked) .cards > li:not([data-${name}~="${value}"]) { display: none; }`,
    ),
  );
  return `/* Generated from src/components/trip-finder.ts */\n${rules.join('\n')}\n`;
}

/**
 * A choice of the trip filters as the departure search's parameters (service/departures/search.ts),
 * for the link from an index to the dates of the trips it shows.
 */
export function searchQuery(name: 'region' | 'difficulty' | 'days', value: string): string {
  if (name !== 'days') return new URLSearchParams({ [name]: value }).toString();
  const band = durationBands.find((b) => b.id === value);
  if (!band) return '';
  return new URLSearchParams({
    minDays: String(band.min),
    ...(Number.isFinite(band.max) ? { maxDays: String(band.max) } : {}),
  }).toString();
}
