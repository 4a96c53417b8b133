/**
 * The departures board's filters, in one place: their names and canonical order, the values each
 * accepts, how a query string is read, and how a filtered address is written. The board's form,
 * its links, its Markdown twin, `/departures.md` and the departures function's kept answers all
 * go through here, so every filtered view has one address and one kept copy.
 *
 *   month  YYYY-MM, from this month (in India) to `monthsAhead - 1` months later
 *   type   trek | expedition
 *   seats  1 | 2 | 4 | 6: departures open for enquiries with at least that many seats left
 *          (or with seats not published, which a guide confirms)
 *   trip   the slug of a published trip
 *
 * A value outside these is ignored, not refused: the board is shown without that filter and says
 * so in a sentence that never repeats the value. The accepted values are few (36 months, 2 types,
 * 4 thresholds, one per trip), so the distinct views, and the work they can cause, stay bounded.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { formatInr, formatMonth } from '../../domain/format.ts';
import type { Departure } from '../../domain/schemas/departure.ts';
import { tripTypes } from '../../domain/schemas/vocabulary.ts';
import { todayInIndia } from './store.ts';

/** The filters' query parameters, in the order a canonical address lists them. */
export const boardFilterNames = ['month', 'type', 'seats', 'trip'] as const;
export type BoardFilterName = (typeof boardFilterNames)[number];

export type TripType = (typeof tripTypes)[number];
export const seatThresholds = [1, 2, 4, 6] as const;
export const monthsAhead = 36;

export interface BoardFilters {
  month?: string | undefined;
  type?: TripType | undefined;
  seats?: number | undefined;
  trip?: string | undefined;
}

export interface BoardQuery {
  filters: BoardFilters;
  /** Filters given with a value the board does not accept, in canonical order. */
  ignored: BoardFilterName[];
}

/** The months the month filter accepts, earliest first: this month in India and the next ones. */
export function acceptedMonths(now: Date): string[] {
  const [year, month] = todayInIndia(now).split('-').map(Number) as [number, number];
  return Array.from({ length: monthsAhead }, (_, i) => {
    const index = year * 12 + (month - 1) + i;
    return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
  });
}

function readOne(name: BoardFilterName, raw: string, catalogue: Catalogue, now: Date): BoardFilters[BoardFilterName] {
  switch (name) {
    case 'month':
      return acceptedMonths(now).includes(raw) ? raw : undefined;
    case 'type':
      return tripTypes.find((t) => t === raw);
    case 'seats':
      return seatThresholds.find((n) => String(n) === raw);
    case 'trip':
      return catalogue.trips.find((p) => p.trip.slug === raw)?.trip.slug;
  }
}

/** The filters of a board address. Empty values (the form's "any") are no filter; parameters of other names are left alone. */
export function readBoardQuery(params: URLSearchParams, catalogue: Catalogue, now: Date): BoardQuery {
  const filters: Record<string, unknown> = {};
  const ignored: BoardFilterName[] = [];
  for (const name of boardFilterNames) {
    const raw = params.get(name)?.trim() ?? '';
    if (!raw) continue;
    const value = readOne(name, raw, catalogue, now);
    if (value === undefined) ignored.push(name);
    else filters[name] = value;
  }
  return { filters: filters as BoardFilters, ignored };
}

/** The canonical query string of these filters ("" when there are none), always in the same order. */
export function boardSearch(filters: BoardFilters): string {
  const params = new URLSearchParams();
  for (const name of boardFilterNames) {
    const value = filters[name];
    if (value !== undefined) params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The key a view is kept under: the canonical filters and which ones were ignored, nothing else of the address. */
export function boardQueryKey(query: BoardQuery): string {
  return `${boardSearch(query.filters)}#${query.ignored.join(',')}`;
}

/** The YYYY-MM of a departure's first day. */
export const monthOf = (d: Pick<Departure, 'startDate'>): string => d.startDate.slice(0, 7);

/** Departures a person can still ask to join. */
export function isBookable(d: Pick<Departure, 'status'>): boolean {
  return d.status === 'open' || d.status === 'filling';
}

/** Open for enquiries, with room for `seats` people as far as is published. */
function hasSeats(d: Departure, seats: number): boolean {
  if (!isBookable(d)) return false;
  return d.seatsLeft == null || d.seatsLeft >= seats;
}

export function applyBoardFilters(departures: readonly Departure[], filters: BoardFilters, catalogue: Catalogue): Departure[] {
  const typeOf = new Map(catalogue.trips.map((p) => [p.trip.slug, p.trip.type]));
  return departures.filter(
    (d) =>
      (filters.trip === undefined || d.tripSlug === filters.trip) &&
      (filters.type === undefined || typeOf.get(d.tripSlug) === filters.type) &&
      (filters.month === undefined || monthOf(d) === filters.month) &&
      (filters.seats === undefined || hasSeats(d, filters.seats)),
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

export const seatsLabel = (seats: number): string => `${seats} or more`;

/** The filters in words, in canonical order: "June 2027, treks, at least 2 seats left, Hampta Pass Trek". */
export function filtersInWords(filters: BoardFilters, catalogue: Catalogue): string[] {
  const words: string[] = [];
  if (filters.month) words.push(formatMonth(filters.month));
  if (filters.type) words.push(typeLabel[filters.type].toLowerCase());
  if (filters.seats) words.push(filters.seats === 1 ? 'seats left' : `at least ${filters.seats} seats left`);
  if (filters.trip) words.push(catalogue.trips.find((p) => p.trip.slug === filters.trip)?.trip.name ?? filters.trip);
  return words;
}

const ignoredWords: Record<BoardFilterName, string> = {
  month: `the month in the address is not one we list (this month and the next ${monthsAhead - 1} are)`,
  type: 'the kind of trip in the address is not “trek” or “expedition”',
  seats: `the number of seats in the address is not one of ${seatThresholds.join(', ')}`,
  trip: 'the address names no trip we run',
};

/** Why some filters were left out, as one sentence (without repeating what the address said). */
export function ignoredSentence(ignored: readonly BoardFilterName[]): string {
  const reasons = ignored.map((name) => ignoredWords[name]);
  return `Some of the address was not used: ${reasons.join('; ')}. Those filters are left out.`;
}
