/**
 * The departure search: one set of filters over the live departures of every trip, with the same
 * names and rules wherever it is asked: the board (`/departures`), its Markdown twin,
 * `/departures.md`, `/departures.ics`, `GET /v1/departures`, the MCP tool `list_departures` and
 * the WebMCP tool of the same name.
 *
 * Here, once: each filter's name, accepted form, description and example (the /v1 declaration,
 * from which the OpenAPI document and the tools' input schemas are made), the one rule between
 * two filters (`from` not after `to`), the predicate a departure passes, and the canonical query
 * string of a search. /v1 refuses a value outside the accepted form (400 `invalid_parameter`
 * with the form as its hint); the board leaves it out and says so (board-filters.ts).
 */
import type { Catalogue, TripPage } from '../../domain/catalogue/index.ts';
import { tripDays } from '../../domain/catalogue/trip-facts.ts';
import type { Departure } from '../../domain/schemas/departure.ts';
import { difficulties, slugPattern, tripTypes } from '../../domain/schemas/vocabulary.ts';
import { z } from 'astro/zod';
import { KeptWith } from '../http/bounded-memo.ts';
import { ApiError } from '../http/errors.ts';
import { isBookable } from './departure-words.ts';
import {
  dateParam,
  enumParam,
  parseQuery,
  positiveIntegerParam,
  regionParam,
  type Parsed,
  type QueryParameter,
  type QueryParameters,
} from '../http/query-params.ts';

/** Months ahead of a date, as YYYY-MM-DD: where the examples' date window ends. */
function monthsAfter(iso: string, months: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.toISOString().slice(0, 10);
}

/** The shortest, or longest, of some numbers as query text; nothing when there are none. */
function extreme(values: number[], pick: 'min' | 'max'): string | undefined {
  return values.length === 0 ? undefined : String(Math[pick](...values));
}
const lengths = (c: Catalogue) => c.trips.map(tripDays);
const prices = (c: Catalogue) => c.trips.flatMap((p) => (p.trip.priceInr == null ? [] : [p.trip.priceInr]));

const tripParam: QueryParameter<string> = {
  schema: z.string().regex(slugPattern),
  accepted: 'a trip slug: lowercase letters, digits and hyphens (see GET /v1/trips)',
  description: 'Restricts departures to one trip slug.',
  openapi: { type: 'string', pattern: slugPattern.source },
  example: (c) => c.trips[0]?.trip.slug,
  argument: z.string().regex(slugPattern),
};

/**
 * The filters, in the order a canonical address lists them. Examples come from the catalogue
 * (and the date the dataset was last updated, from which the OpenAPI examples' departures run),
 * so each one finds something.
 */
export const searchParameters = {
  trip: tripParam,
  from: {
    ...dateParam('Departures starting on or after this date.'),
    example: (c: Catalogue) => c.site.dataset.lastUpdated,
  },
  to: {
    ...dateParam('Departures starting on or before this date; not before `from`.'),
    example: (c: Catalogue) => monthsAfter(c.site.dataset.lastUpdated, 6),
  },
  type: {
    ...enumParam(tripTypes, 'Departures of treks (`trek`) or of expeditions (`expedition`). Omitting it lists both.', {
      omitHint: 'omit the parameter to list both',
    }),
    example: () => 'trek',
  },
  difficulty: {
    ...enumParam(difficulties, "Exact, case-insensitive match on the trip's difficulty band.", {
      caseInsensitive: true,
    }),
    example: (c: Catalogue) => c.trips[0]?.trip.difficulty,
  },
  region: regionParam("Case-insensitive substring match on the trip's region."),
  minDays: {
    ...positiveIntegerParam("Trips at least this many days long (the trip's length)."),
    example: (c: Catalogue) => extreme(lengths(c), 'min'),
  },
  maxDays: {
    ...positiveIntegerParam("Trips at most this many days long (the trip's length)."),
    example: (c: Catalogue) => extreme(lengths(c), 'max'),
  },
  minSeats: {
    ...positiveIntegerParam(
      'Departures a group of this many can still ask to join: `open` or `filling`, with at least this many seats left. A departure whose seats are not published is included; a guide confirms its seats.',
    ),
    example: () => '2',
  },
  maxPriceInr: {
    ...positiveIntegerParam(
      "Departures priced at or below the amount per person, in INR (the departure's price, else the trip's). Departures with no published price are excluded when this filter is used.",
    ),
    example: (c: Catalogue) => extreme(prices(c), 'max'),
  },
} satisfies QueryParameters;

/** The question the search answers, as one example for people, agents and the API reference alike. */
export const searchExample = {
  question:
    'a moderate trek of about a week, starting between 20 September and 31 October 2027, for two people, under ₹25,000 each',
  query: '?type=trek&difficulty=Moderate&maxDays=8&from=2027-09-20&to=2027-10-31&minSeats=2&maxPriceInr=25000',
};

export type SearchName = keyof typeof searchParameters;
export const searchNames = Object.keys(searchParameters) as SearchName[];

/** A search: the filters given, each in its canonical form. */
export type DepartureSearch = Parsed<typeof searchParameters>;

/** A rule between two filters that a search breaks: the two names, what is wrong, and what to send instead. */
export interface BrokenRule {
  /** The rule, as the board names a pair it leaves out: the dates, or the lengths. */
  pair: 'dates' | 'days';
  names: [SearchName, SearchName];
  message: string;
  hint: string;
}

/** The rules between two filters: neither the date window nor the length window is upside down. */
export function brokenRules(search: DepartureSearch): BrokenRule[] {
  const broken: BrokenRule[] = [];
  if (search.from !== undefined && search.to !== undefined && search.from > search.to) {
    broken.push({
      pair: 'dates',
      names: ['from', 'to'],
      message: `"from" (${search.from}) is after "to" (${search.to}).`,
      hint: 'Use dates written YYYY-MM-DD with "from" on or before "to", or leave one of them out.',
    });
  }
  if (search.minDays !== undefined && search.maxDays !== undefined && search.minDays > search.maxDays) {
    broken.push({
      pair: 'days',
      names: ['minDays', 'maxDays'],
      message: `"minDays" (${search.minDays}) is above "maxDays" (${search.maxDays}).`,
      hint: 'Use whole numbers with "minDays" at or below "maxDays", or leave one of them out.',
    });
  }
  return broken;
}

/** Queries that break the rules, for the OpenAPI document's examples. */
export const searchRuleExamples = [
  { summary: '"from" after "to"', query: '?from=2027-10-31&to=2027-09-20' },
  { summary: '"minDays" above "maxDays"', query: '?minDays=10&maxDays=5' },
];

/** Each address's search, read once however many steps of a request ask (by the URL the request was parsed into). */
const searches = new KeptWith((url: URL): DepartureSearch | ApiError => {
  try {
    const search = parseQuery(url, searchParameters);
    const [broken] = brokenRules(search);
    if (broken) throw new ApiError('invalid_parameter', { message: broken.message, hint: broken.hint });
    return search;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return error;
  }
});

/** The search of a /v1 address, or a 400 `invalid_parameter` whose hint names the accepted form. */
export function readSearch(url: URL): DepartureSearch {
  const search = searches.get(url);
  if (search instanceof ApiError) throw search;
  return search;
}

// Departures a person can still ask to join (departure-words.ts, which the MCP App's view shares).
export { isBookable };

/** Open for enquiries, with room for `people` as far as is published (unpublished seats are confirmed by a guide). */
export function hasRoomFor(d: Pick<Departure, 'status' | 'seatsLeft'>, people: number): boolean {
  return isBookable(d) && (d.seatsLeft == null || d.seatsLeft >= people);
}

/** Whether a departure of the trip on `page` passes every filter of the search. */
export function matchesSearch(d: Departure, page: TripPage, s: DepartureSearch): boolean {
  const trip = page.trip;
  const days = tripDays(page);
  return (
    (s.trip === undefined || d.tripSlug === s.trip) &&
    (s.from === undefined || d.startDate >= s.from) &&
    (s.to === undefined || d.startDate <= s.to) &&
    (s.type === undefined || trip.type === s.type) &&
    (s.difficulty === undefined || trip.difficulty === s.difficulty) &&
    (s.region === undefined || trip.region.toLowerCase().includes(s.region.toLowerCase())) &&
    (s.minDays === undefined || days >= s.minDays) &&
    (s.maxDays === undefined || days <= s.maxDays) &&
    (s.minSeats === undefined || hasRoomFor(d, s.minSeats)) &&
    (s.maxPriceInr === undefined || (d.priceInr != null && d.priceInr <= s.maxPriceInr))
  );
}

/** The departures that pass the search, in the order given (start date first, as storage reads them). */
export function searchDepartures(
  departures: readonly Departure[],
  search: DepartureSearch,
  catalogue: Catalogue,
): Departure[] {
  const pages = new Map(catalogue.trips.map((p) => [p.trip.slug, p]));
  return departures.filter((d) => {
    const page = pages.get(d.tripSlug);
    return page !== undefined && matchesSearch(d, page, search);
  });
}

/** A search's values as query text, in canonical order; a region in lower case, as it is matched. */
export function searchEntries(search: DepartureSearch): [SearchName, string][] {
  return searchNames.flatMap((name) => {
    const value = search[name];
    if (value === undefined) return [];
    return [[name, name === 'region' ? String(value).toLowerCase() : String(value)]];
  });
}

/** Whether the search has any filter. */
export function isFiltered(search: DepartureSearch): boolean {
  return searchNames.some((name) => search[name] !== undefined);
}
