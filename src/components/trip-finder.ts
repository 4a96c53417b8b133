/**
 * Finding a trip without JavaScript: the index pages read region, difficulty and length from the
 * query string (a plain GET form), so every filtered view is a shareable URL.
 */
import type { TripPage } from '../../service/catalogue/index.ts';
import { difficulties } from '../schemas/vocabulary.ts';

type Difficulty = (typeof difficulties)[number];

/** States and union territories of the Indian Himalaya, matched inside a trip's region text. */
const himalayanStates = ['Ladakh', 'Jammu and Kashmir', 'Himachal Pradesh', 'Uttarakhand', 'Sikkim', 'West Bengal', 'Arunachal Pradesh'] as const;

export const durationBands = [
  { id: 'short', label: 'Up to 6 days', min: 1, max: 6 },
  { id: 'week', label: '7 to 10 days', min: 7, max: 10 },
  { id: 'long', label: '11 days or more', min: 11, max: Infinity },
] as const;
type DurationBand = (typeof durationBands)[number];

export interface TripFilters {
  region?: string;
  difficulty?: Difficulty;
  days?: DurationBand['id'];
}

export interface FinderOptions {
  regions: string[];
  difficulties: readonly Difficulty[];
  durations: readonly DurationBand[];
}

export function tripDays(page: TripPage): number {
  return page.trip.durationDays ?? page.content.itinerary.length;
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

/** Reads the filters; a value we do not know is dropped and reported, never an error page. */
export function parseFilters(params: URLSearchParams): { filters: TripFilters; ignored: string[] } {
  const filters: TripFilters = {};
  const ignored: string[] = [];
  const value = (name: string) => params.get(name)?.trim().slice(0, 60) ?? '';
  const region = value('region');
  if (region) {
    const match = himalayanStates.find((s) => s.toLowerCase() === region.toLowerCase());
    if (match) filters.region = match;
    else ignored.push(`region "${region}"`);
  }
  const difficulty = value('difficulty');
  if (difficulty) {
    const match = difficulties.find((d) => d.toLowerCase() === difficulty.toLowerCase());
    if (match) filters.difficulty = match;
    else ignored.push(`difficulty "${difficulty}"`);
  }
  const days = value('days');
  if (days) {
    const match = durationBands.find((b) => b.id === days.toLowerCase());
    if (match) filters.days = match.id;
    else ignored.push(`length "${days}"`);
  }
  return { filters, ignored };
}

export function applyFilters(pages: readonly TripPage[], filters: TripFilters): TripPage[] {
  const band = durationBands.find((b) => b.id === filters.days);
  return pages.filter(
    (p) =>
      (filters.region === undefined || regionsOf(p).includes(filters.region)) &&
      (filters.difficulty === undefined || p.trip.difficulty === filters.difficulty) &&
      (band === undefined || (tripDays(p) >= band.min && tripDays(p) <= band.max)),
  );
}

/** Easiest first, then shortest: the order a newcomer reads a list of trips in. */
export function byDifficultyThenLength(a: TripPage, b: TripPage): number {
  return difficulties.indexOf(a.trip.difficulty) - difficulties.indexOf(b.trip.difficulty) || tripDays(a) - tripDays(b) || a.trip.name.localeCompare(b.trip.name);
}

export function describeFilters(filters: TripFilters): string {
  const parts = [
    filters.difficulty && filters.difficulty.toLowerCase(),
    filters.days && durationBands.find((b) => b.id === filters.days)?.label.toLowerCase(),
    filters.region && `in ${filters.region}`,
  ].filter(Boolean);
  return parts.join(', ');
}
