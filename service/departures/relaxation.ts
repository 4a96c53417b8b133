/**
 * When a search finds nothing: the changes of one filter that would find something, worked out
 * from the departures themselves, never guessed. For each filter given, the departures that pass
 * every other filter are the candidates; the smallest change of that one filter that lets some of
 * them through is named with how many it lets through ("2 dates if you allow Difficult", "1 date
 * from 12 Sep 2027") and the address of that search.
 *
 * `trip` is not relaxed: whoever chose one trip asks about that trip.
 */
import { tripBySlug, type Catalogue } from '../../domain/catalogue/index.ts';
import { tripDays } from '../../domain/catalogue/trip-facts.ts';
import { formatDate, formatDays, formatInr, formatMonth } from '../../domain/format.ts';
import type { Departure } from '../../domain/schemas/departure.ts';
import { difficulties, tripTypes } from '../../domain/schemas/vocabulary.ts';
import {
  applyBoardFilters,
  boardSearch,
  monthOf,
  typeLabel,
  type BoardFilterName,
  type BoardFilters,
} from './board-filters.ts';
import { isBookable } from './search.ts';

export interface Relaxation {
  /** The filter changed. */
  name: BoardFilterName;
  /** The search with that one change. */
  filters: BoardFilters;
  /** How many departures it finds. */
  count: number;
  /** "2 dates if you allow Difficult". */
  words: string;
  /** Its address on the board, `?…` ("" for no filter). */
  search: string;
}

type Change = { filters: BoardFilters; words: (dates: string) => string } | undefined;

/** The filters without one. */
function without(filters: BoardFilters, name: keyof BoardFilters): BoardFilters {
  const rest = { ...filters };
  delete rest[name];
  return rest;
}

const dates = (n: number) => (n === 1 ? '1 date' : `${n} dates`);

/** The value nearest to `wanted` among `values` (the earlier one on a tie). */
function nearest<T>(values: readonly T[], distance: (value: T) => number): T | undefined {
  return [...values].sort((a, b) => distance(a) - distance(b))[0];
}

const monthIndex = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7));

/**
 * The smallest change of `name` that lets some `candidates` through: departures that pass every
 * filter but this one.
 */
function change(
  name: BoardFilterName,
  candidates: readonly Departure[],
  filters: BoardFilters,
  catalogue: Catalogue,
): Change {
  const starts = candidates.map((d) => d.startDate).sort();
  const daysOf = (d: Departure) => {
    const page = tripBySlug(catalogue, d.tripSlug);
    return page ? tripDays(page) : 0;
  };
  switch (name) {
    case 'from': {
      const latest = starts.at(-1)!;
      return { filters: { ...filters, from: latest }, words: (n) => `${n} from ${formatDate(latest)}` };
    }
    case 'to': {
      const earliest = starts[0]!;
      return { filters: { ...filters, to: earliest }, words: (n) => `${n} up to ${formatDate(earliest)}` };
    }
    case 'month': {
      const wanted = monthIndex(filters.month ?? '');
      const month = nearest([...new Set(candidates.map(monthOf))], (m) => Math.abs(monthIndex(m) - wanted))!;
      return { filters: { ...filters, month }, words: (n) => `${n} in ${formatMonth(month)}` };
    }
    case 'type': {
      const other = tripTypes.find((t) => t !== filters.type)!;
      return {
        filters: without(filters, 'type'),
        words: (n) => `${n} if you include ${typeLabel[other].toLowerCase()}`,
      };
    }
    case 'difficulty': {
      const bands = difficulties.filter((band) =>
        candidates.some((d) => tripBySlug(catalogue, d.tripSlug)?.trip.difficulty === band),
      );
      const wanted = difficulties.indexOf(filters.difficulty!);
      const band = nearest(bands, (b) => Math.abs(difficulties.indexOf(b) - wanted))!;
      return { filters: { ...filters, difficulty: band }, words: (n) => `${n} if you allow ${band}` };
    }
    case 'region':
      return { filters: without(filters, 'region'), words: (n) => `${n} in any region` };
    case 'minDays': {
      const longest = Math.max(...candidates.map(daysOf));
      return {
        filters: { ...filters, minDays: longest },
        words: (n) => `${n} if you allow trips of ${formatDays(longest)}`,
      };
    }
    case 'maxDays': {
      const shortest = Math.min(...candidates.map(daysOf));
      return {
        filters: { ...filters, maxDays: shortest },
        words: (n) => `${n} if you allow trips of ${formatDays(shortest)}`,
      };
    }
    case 'minSeats':
    case 'seats': {
      const seats = candidates.flatMap((d) =>
        isBookable(d) && d.seatsLeft != null && d.seatsLeft >= 1 ? [d.seatsLeft] : [],
      );
      if (seats.length === 0) return undefined;
      const most = Math.max(...seats);
      return { filters: { ...filters, minSeats: most }, words: (n) => `${n} for a group of ${most}` };
    }
    case 'maxPriceInr': {
      const priced = candidates.flatMap((d) => (d.priceInr == null ? [] : [d.priceInr]));
      if (priced.length === 0)
        return { filters: without(filters, 'maxPriceInr'), words: (n) => `${n} priced on request` };
      const cheapest = Math.min(...priced);
      return {
        filters: { ...filters, maxPriceInr: cheapest },
        words: (n) => `${n} up to ${formatInr(cheapest)} per person`,
      };
    }
    case 'trip':
      return undefined;
  }
}

const relaxable: readonly BoardFilterName[] = [
  'month',
  'from',
  'to',
  'type',
  'difficulty',
  'region',
  'minDays',
  'maxDays',
  'minSeats',
  'maxPriceInr',
];

/**
 * Each single change that would find departures, in the order of the filters; none when the
 * filters already find some, or when nothing is on sale at all.
 */
export function relaxations(
  departures: readonly Departure[],
  filters: BoardFilters,
  catalogue: Catalogue,
): Relaxation[] {
  if (departures.length === 0 || applyBoardFilters(departures, filters, catalogue).length > 0) return [];
  return relaxable.flatMap((name) => {
    if (filters[name as keyof BoardFilters] === undefined) return [];
    const candidates = applyBoardFilters(departures, without(filters, name as keyof BoardFilters), catalogue);
    if (candidates.length === 0) return [];
    const changed = change(name, candidates, filters, catalogue);
    if (!changed) return [];
    const relaxed = changed.filters;
    const count = applyBoardFilters(departures, relaxed, catalogue).length;
    return count === 0
      ? []
      : [{ name, filters: relaxed, count, words: changed.words(dates(count)), search: boardSearch(relaxed) }];
  });
}
