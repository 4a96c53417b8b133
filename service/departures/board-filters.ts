/**
 * The departures board's reading of the departure search (search.ts): the same filters, read from
 * its address leniently, plus two older ones the board has always taken. The board's form, its
 * links, its Markdown twin, `/departures.md`, `/departures.ics` and the departures function's kept
 * answers all go through here, so every filtered view has one address and one kept copy.
 *
 *   the search's filters  from, to, type, difficulty, region, minDays, maxDays, minSeats,
 *                         maxPriceInr, trip (a trip we run)
 *   month  YYYY-MM, from this month (in India) to `monthsAhead - 1` months later
 *   seats  1 | 2 | 4 | 6: the older spelling of minSeats (a link written before the search)
 *
 * A value outside these is ignored, not refused: the board is shown without that filter and says
 * so in a sentence that names the accepted form and never repeats the value.
 */
import { tripBySlug, type Catalogue } from '../../domain/catalogue/index.ts';
import { formatDate, formatDays, formatInr, formatMonth } from '../../domain/format.ts';
import type { Departure } from '../../domain/schemas/departure.ts';
import { tripTypes } from '../../domain/schemas/vocabulary.ts';
import {
  brokenRules,
  isBookable,
  searchDepartures,
  searchEntries,
  searchNames,
  searchParameters,
  type DepartureSearch,
  type SearchName,
} from './search.ts';
import { todayInIndia } from './today.ts';

export { isBookable };

/** The board's query parameters, in the order a canonical address lists them. */
export const boardFilterNames = ['month', ...searchNames, 'seats'] as const;
export type BoardFilterName = (typeof boardFilterNames)[number];

export type TripType = (typeof tripTypes)[number];
export const seatThresholds = [1, 2, 4, 6] as const;
export const monthsAhead = 36;

export interface BoardFilters extends DepartureSearch {
  month?: string | undefined;
}

/**
 * A filter left out; or a pair left out for being the wrong way round: `dates` (`from` after
 * `to`), `days` (`minDays` above `maxDays`).
 */
export type IgnoredFilter = BoardFilterName | 'dates' | 'days';

export interface BoardQuery {
  filters: BoardFilters;
  /** Filters given with a value the board does not accept, in canonical order. */
  ignored: IgnoredFilter[];
}

/** The months the month filter accepts, earliest first: this month in India and the next ones. */
export function acceptedMonths(now: Date): string[] {
  const [year, month] = todayInIndia(now).split('-').map(Number) as [number, number];
  return Array.from({ length: monthsAhead }, (_, i) => {
    const index = year * 12 + (month - 1) + i;
    return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
  });
}

/** One search filter's value as the board takes it: the /v1 form, and for `trip` a trip we run. */
function readSearchValue(name: SearchName, raw: string, catalogue: Catalogue): unknown {
  const parsed = searchParameters[name].schema.safeParse(raw);
  if (!parsed.success) return undefined;
  if (name === 'trip')
    return typeof parsed.data === 'string' ? tripBySlug(catalogue, parsed.data)?.trip.slug : undefined;
  return name === 'region' ? String(parsed.data).toLowerCase() : parsed.data;
}

/** The filters of a board address. Empty values (the form's "any") are no filter; parameters of other names are left alone. */
export function readBoardQuery(params: URLSearchParams, catalogue: Catalogue, now: Date): BoardQuery {
  const filters: Record<string, unknown> = {};
  const ignored: IgnoredFilter[] = [];
  const given = (name: BoardFilterName) => params.get(name)?.trim() ?? '';
  const month = given('month');
  if (month) {
    if (acceptedMonths(now).includes(month)) filters.month = month;
    else ignored.push('month');
  }
  for (const name of searchNames) {
    const raw = given(name);
    if (!raw) continue;
    const value = readSearchValue(name, raw, catalogue);
    if (value === undefined) ignored.push(name);
    else filters[name] = value;
  }
  const seats = given('seats');
  if (seats) {
    const threshold = seatThresholds.find((n) => String(n) === seats);
    if (threshold === undefined) ignored.push('seats');
    // Both given: a group must fit both, so the larger one counts.
    else filters.minSeats = Math.max(threshold, (filters.minSeats as number | undefined) ?? 0);
  }
  for (const broken of brokenRules(filters)) {
    for (const name of broken.names) delete filters[name];
    ignored.push(broken.pair);
  }
  return { filters, ignored };
}

/** The canonical query string of these filters ("" when there are none), always in the same order. */
export function boardSearch(filters: BoardFilters): string {
  const params = new URLSearchParams();
  if (filters.month !== undefined) params.set('month', filters.month);
  for (const [name, value] of searchEntries(filters)) params.set(name, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The key a view is kept under: the canonical filters and which ones were ignored, nothing else of the address. */
export function boardQueryKey(query: BoardQuery): string {
  return `${boardSearch(query.filters)}#${query.ignored.join(',')}`;
}

/** The last day of a month (YYYY-MM) as YYYY-MM-DD. */
function lastDayOf(month: string): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, m, 0)).toISOString().slice(0, 10);
}

/** The same filters with a month written as the search's dates: its first and last day, within `from` and `to`. */
export function monthAsDates(filters: BoardFilters): DepartureSearch {
  const { month, ...search } = filters;
  if (month === undefined) return search;
  const first = `${month}-01`;
  const last = lastDayOf(month);
  return {
    ...search,
    from: search.from !== undefined && search.from > first ? search.from : first,
    to: search.to !== undefined && search.to < last ? search.to : last,
  };
}

/** Whether any filter is chosen. */
export function hasFilters(filters: BoardFilters): boolean {
  return boardSearch(filters) !== '';
}

/** The YYYY-MM of a departure's first day. */
export const monthOf = (d: Pick<Departure, 'startDate'>): string => d.startDate.slice(0, 7);

/** The departures the board shows for these filters: the search's, within the month when one is chosen. */
export function applyBoardFilters(
  departures: readonly Departure[],
  filters: BoardFilters,
  catalogue: Catalogue,
): Departure[] {
  return searchDepartures(departures, filters, catalogue).filter(
    (d) => filters.month === undefined || monthOf(d) === filters.month,
  );
}

/** Departures by the month they start in, months in order (departures arrive sorted by date). */
export function byMonth(departures: readonly Departure[]): { month: string; departures: Departure[] }[] {
  const groups = new Map<string, Departure[]>();
  for (const d of departures) {
    const list = groups.get(monthOf(d)) ?? [];
    list.push(d);
    groups.set(monthOf(d), list);
  }
  return [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([month, list]) => ({ month, departures: list }));
}

/** "8 departures · 6 open · from ₹12,500": a month at a glance. */
export function monthFacts(departures: readonly Departure[]): string {
  const open = departures.filter(isBookable);
  const prices = open.flatMap((d) => (d.priceInr == null ? [] : [d.priceInr]));
  const parts = [departures.length === 1 ? '1 departure' : `${departures.length} departures`, `${open.length} open`];
  if (prices.length > 0) parts.push(`from ${formatInr(Math.min(...prices))}`);
  return parts.join(' · ');
}

export const typeLabel: Record<TripType, string> = { trek: 'Treks', expedition: 'Expeditions' };

/** "5 to 8 days", "at least 5 days", "up to 8 days". */
function daysInWords(min: number | undefined, max: number | undefined): string | undefined {
  if (min !== undefined && max !== undefined) return min === max ? formatDays(min) : `${min} to ${formatDays(max)}`;
  if (min !== undefined) return `at least ${formatDays(min)}`;
  if (max !== undefined) return `up to ${formatDays(max)}`;
  return undefined;
}

/**
 * The filters in words, in canonical order: "June 2027, treks, Moderate, up to 8 days, at least 2
 * seats left, up to ₹25,000 per person". The region is text the address gave: `given` writes it
 * for the format the words go into (escaped for Markdown; HTML escapes it where it is written).
 */
export function filtersInWords(
  filters: BoardFilters,
  catalogue: Catalogue,
  given: (text: string) => string = (text) => text,
): string[] {
  const words: string[] = [];
  if (filters.month) words.push(formatMonth(filters.month));
  if (filters.from && filters.to) words.push(`starting ${formatDate(filters.from)} to ${formatDate(filters.to)}`);
  else if (filters.from) words.push(`starting from ${formatDate(filters.from)}`);
  else if (filters.to) words.push(`starting by ${formatDate(filters.to)}`);
  if (filters.type) words.push(typeLabel[filters.type].toLowerCase());
  if (filters.difficulty) words.push(filters.difficulty);
  if (filters.region) words.push(`region “${given(filters.region)}”`);
  const days = daysInWords(filters.minDays, filters.maxDays);
  if (days) words.push(days);
  if (filters.minSeats) words.push(filters.minSeats === 1 ? 'seats left' : `at least ${filters.minSeats} seats left`);
  if (filters.maxPriceInr) words.push(`up to ${formatInr(filters.maxPriceInr)} per person`);
  if (filters.trip) words.push(tripBySlug(catalogue, filters.trip)?.trip.name ?? filters.trip);
  return words;
}

const ignoredWords: Record<IgnoredFilter, string> = {
  month: `the month in the address is not one we list (this month and the next ${monthsAhead - 1} are)`,
  seats: `the number of seats in the address is not one of ${seatThresholds.join(', ')}`,
  trip: 'the address names no trip we run',
  dates: '“from” is after “to”, so neither date is used',
  days: '“minDays” is above “maxDays”, so neither length is used',
  ...(Object.fromEntries(
    searchNames
      .filter((name) => name !== 'trip')
      .map((name) => [name, `“${name}” takes ${searchParameters[name].accepted}`]),
  ) as Record<Exclude<SearchName, 'trip'>, string>),
};

/** Why some filters were left out, as one sentence (without repeating what the address said). */
export function ignoredSentence(ignored: readonly IgnoredFilter[]): string {
  const reasons = ignored.map((name) => ignoredWords[name]);
  return `Some of the address was not used: ${reasons.join('; ')}. Those filters are left out.`;
}

/**
 * Why a search that must be exact (a calendar, which a subscribing app shows without the board's
 * sentence) was refused, as one sentence, again without repeating what the address said.
 */
export function refusedSentence(ignored: readonly IgnoredFilter[]): string {
  const reasons = ignored.map((name) => ignoredWords[name]);
  return `This search was not made: ${reasons.join('; ')}. Correct the address, or leave ${ignored.length === 1 ? 'that filter' : 'those filters'} out.`;
}
