/**
 * A search that finds nothing names the single changes that would find something
 * (service/departures/relaxation.ts): each worked out from the departures, the smallest change of
 * one filter, with how many dates it finds, and every one of them true when searched for.
 */
import { describe, expect, it } from 'vitest';
import { applyBoardFilters, readBoardQuery, type BoardFilters } from '../../service/departures/board-filters.ts';
import { relaxations } from '../../service/departures/relaxation.ts';
import type { Departure } from '../../domain/schemas/departure.ts';
import { loadCatalogue, realContent } from '../helpers/content.ts';

const catalogue = loadCatalogue(realContent);
const trip = (slug: string) => catalogue.trips.find((p) => p.trip.slug === slug)!.trip;

function departure(slug: string, startDate: string, over: Partial<Departure> = {}): Departure {
  const t = trip(slug);
  return {
    id: `${slug}-${startDate}`,
    tripSlug: slug,
    tripName: t.name,
    tripUrl: t.url,
    startDate,
    endDate: startDate,
    status: 'open',
    priceInr: t.priceInr ?? null,
    seatsTotal: 12,
    seatsLeft: 8,
    ...over,
  };
}

// Hampta Pass: Moderate trek, 5 days, ₹16,500. Markha Valley: Moderate trek, 8 days, ₹28,500.
// Rupin Pass: Difficult trek, 8 days, ₹23,500. Friendship Peak: Difficult expedition, 8 days, ₹29,500.
const departures = [
  departure('hampta-pass-trek', '2027-09-05', { seatsLeft: 6 }),
  departure('hampta-pass-trek', '2027-09-23', { status: 'filling', seatsLeft: 2 }),
  departure('rupin-pass-trek', '2027-10-05', { seatsLeft: 5 }),
  departure('markha-valley-trek', '2027-10-12', { seatsLeft: 1, status: 'filling' }),
  departure('friendship-peak-expedition', '2027-10-15'),
  departure('hampta-pass-trek', '2027-11-02', { status: 'sold_out', seatsLeft: 0 }),
];
const search = (query: string): BoardFilters =>
  readBoardQuery(new URLSearchParams(query), catalogue, new Date('2026-11-26T12:00:00Z')).filters;
const named = (query: string) =>
  relaxations(departures, search(query), catalogue).map((r) => [r.name, r.words, r.search]);

describe('the single changes that would find dates', () => {
  it('names the nearest difficulty, the nearest start date and the budget, each with its count and address', () => {
    expect(named('type=trek&difficulty=Moderate&from=2027-10-01&to=2027-10-31&minSeats=2&maxPriceInr=25000')).toEqual([
      [
        'from',
        '1 date from 23 Sept 2027',
        '?from=2027-09-23&to=2027-10-31&type=trek&difficulty=Moderate&minSeats=2&maxPriceInr=25000',
      ],
      [
        'difficulty',
        '1 date if you allow Difficult',
        '?from=2027-10-01&to=2027-10-31&type=trek&difficulty=Difficult&minSeats=2&maxPriceInr=25000',
      ],
    ]);
    expect(named('difficulty=Moderate&maxDays=4')).toEqual([
      ['maxDays', '3 dates if you allow trips of 5 days', '?difficulty=Moderate&maxDays=5'],
    ]);
    expect(named('difficulty=Moderate&minDays=9')).toEqual([
      ['minDays', '1 date if you allow trips of 8 days', '?difficulty=Moderate&minDays=8'],
    ]);
    expect(named('type=expedition&maxPriceInr=25000')).toEqual([
      ['type', '4 dates if you include treks', '?maxPriceInr=25000'],
      ['maxPriceInr', '1 date up to ₹29,500 per person', '?type=expedition&maxPriceInr=29500'],
    ]);
    expect(named('trip=markha-valley-trek&minSeats=2')).toEqual([
      ['minSeats', '1 date for a group of 1', '?trip=markha-valley-trek&minSeats=1'],
    ]);
    expect(named('region=sikkim')).toEqual([['region', '6 dates in any region', '']]);
    expect(named('month=2027-12')).toEqual([['month', '1 date in November 2027', '?month=2027-11']]);
  });

  it('says nothing when the search finds dates, when nothing is on sale, or when no one change helps', () => {
    expect(named('difficulty=Moderate')).toEqual([]);
    expect(relaxations([], search('difficulty=Easy'), catalogue)).toEqual([]);
    // The one date from November is sold out: fewer people cannot help, an earlier date can.
    expect(named('trip=hampta-pass-trek&from=2027-11-01&minSeats=1')).toEqual([
      ['from', '1 date from 23 Sept 2027', '?trip=hampta-pass-trek&from=2027-09-23&minSeats=1'],
    ]);
    // A trip with no dates on sale: the trip is never relaxed.
    expect(named('trip=kedarkantha-trek')).toEqual([]);
  });

  it('finds, for every change it names, exactly the dates it says', () => {
    const queries = [
      'type=trek&difficulty=Easy&maxPriceInr=1000&minSeats=9',
      'from=2028-01-01&region=ladakh',
      'to=2027-09-01&type=expedition',
      'minDays=20&maxDays=20',
      'difficulty=Very%20Difficult',
    ];
    for (const query of queries) {
      for (const change of relaxations(departures, search(query), catalogue)) {
        expect(applyBoardFilters(departures, change.filters, catalogue), `${query}: ${change.words}`).toHaveLength(
          change.count,
        );
        expect(change.count).toBeGreaterThan(0);
        expect(change.words.startsWith(change.count === 1 ? '1 date ' : `${change.count} dates `)).toBe(true);
      }
    }
  });
});
