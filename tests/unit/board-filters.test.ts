/**
 * The departures board's filters (service/departures/board-filters.ts, over the search of
 * search.ts): the values each accepts, what is ignored, one canonical address and kept-copy key
 * per view however the address was written, and the filtering and grouping the board, its
 * Markdown twin and departures.md share.
 */
import { describe, expect, it } from 'vitest';
import {
  acceptedMonths,
  applyBoardFilters,
  boardQueryKey,
  boardSearch,
  byMonth,
  ignoredSentence,
  monthsAhead,
  readBoardQuery,
  seatThresholds,
} from '../../service/departures/board-filters.ts';
import { boardMain } from '../../service/departures/board-page.ts';
import { seedDepartures } from '../../service/departures/seed.ts';
import { departuresMarkdown } from '../../service/markdown/departures.ts';
import type { Departure } from '../../domain/schemas/departure.ts';
import { loadCatalogue } from '../helpers/content.ts';
import { projectRoot } from '../helpers/project.ts';
import path from 'node:path';

const catalogue = loadCatalogue();
const now = new Date('2026-11-24T12:00:00Z');
const read = (query: string) => readBoardQuery(new URLSearchParams(query), catalogue, now);

function departure(over: Partial<Departure>): Departure {
  return {
    id: 'x',
    tripSlug: 'sample-trek',
    tripName: 'Fixture Trek',
    tripUrl: 'https://example.test/treks/sample-trek',
    startDate: '2027-06-05',
    endDate: '2027-06-06',
    status: 'open',
    priceInr: 15000,
    seatsTotal: 12,
    seatsLeft: 8,
    ...over,
  };
}

describe('reading the filters', () => {
  it("accepts each filter's values, and a month from this month (in India) for 36 months", () => {
    expect(read('month=2027-06&type=trek&seats=4&trip=sample-trek')).toEqual({
      filters: { month: '2027-06', type: 'trek', minSeats: 4, trip: 'sample-trek' },
      ignored: [],
    });
    expect(
      read(
        'from=2027-09-20&to=2027-10-31&type=expedition&difficulty=moderate&region=%20LADAKH%20&minDays=2&maxDays=8&minSeats=3&maxPriceInr=25000',
      ),
    ).toEqual({
      filters: {
        from: '2027-09-20',
        to: '2027-10-31',
        type: 'expedition',
        difficulty: 'Moderate',
        region: 'ladakh',
        minDays: 2,
        maxDays: 8,
        minSeats: 3,
        maxPriceInr: 25000,
      },
      ignored: [],
    });
    const months = acceptedMonths(now);
    expect(months).toHaveLength(monthsAhead);
    expect(months[0]).toBe('2026-11');
    expect(months.at(-1)).toBe('2029-10');
    // Just after midnight in India it is already the next month there.
    expect(acceptedMonths(new Date('2026-11-30T19:00:00Z'))[0]).toBe('2026-12');
    // `seats` is the older spelling of minSeats; given both, a group must fit both.
    for (const n of seatThresholds) expect(read(`seats=${n}`).filters.minSeats).toBe(n);
    expect(read('seats=2&minSeats=5').filters.minSeats).toBe(5);
    expect(read('seats=6&minSeats=5').filters.minSeats).toBe(6);
  });

  it('treats empty values (the form\'s "any") as no filter, and ignores parameters of other names', () => {
    expect(read('month=&type=&seats=&trip=&utm_source=x&z=1')).toEqual({ filters: {}, ignored: [] });
  });

  it('ignores values it does not accept, and says which filters without repeating them', () => {
    const query = read('month=2026-10&type=Trek&seats=3&trip=<script>');
    expect(query).toEqual({ filters: {}, ignored: ['month', 'trip', 'type', 'seats'] });
    const sentence = ignoredSentence(query.ignored);
    expect(sentence).not.toContain('<script>');
    expect(sentence).not.toContain('2026-10');
    for (const bad of ['2029-11', '2027-6', '2027-13', '202706', ' 2027-06x'])
      expect(read(`month=${encodeURIComponent(bad)}`).ignored).toEqual(['month']);
    const search = read(
      'from=2027-02-30&to=tomorrow&difficulty=hard&region=x&minDays=0&maxDays=1.5&minSeats=-1&maxPriceInr=12%2C000',
    );
    expect(search).toEqual({
      filters: {},
      ignored: ['from', 'to', 'difficulty', 'region', 'minDays', 'maxDays', 'minSeats', 'maxPriceInr'],
    });
    const words = ignoredSentence(search.ignored);
    for (const echoed of ['2027-02-30', 'tomorrow', 'hard', '1.5', '12,000']) expect(words).not.toContain(echoed);
    // The sentence names the accepted form, as /v1's hint does.
    expect(words).toContain('“from” takes a calendar date written YYYY-MM-DD');
    expect(words).toContain('“minSeats” takes a whole number from 1');
  });

  it('leaves out both dates when "from" is after "to", and says why', () => {
    const query = read('from=2027-10-31&to=2027-09-20&type=trek');
    expect(query).toEqual({ filters: { type: 'trek' }, ignored: ['dates'] });
    expect(ignoredSentence(query.ignored)).toContain('“from” is after “to”');
  });

  it('writes one canonical address, in one order, whatever order and spelling it was given in', () => {
    const a = read('trip=sample-trek&seats=2&month=2027-06&type=trek&utm=1');
    const b = read('type=trek&month=2027-06&trip=sample-trek&seats=2&seats=9');
    expect(boardSearch(a.filters)).toBe('?month=2027-06&trip=sample-trek&type=trek&minSeats=2');
    expect(boardQueryKey(a)).toBe(boardQueryKey(b));
    expect(boardSearch({})).toBe('');
    expect(boardQueryKey(read('month=bad'))).toBe(boardQueryKey(read('month=other-bad')));
    expect(boardQueryKey(read('month=bad'))).not.toBe(boardQueryKey(read('')));
    // The older spelling and the new one are one view; a region is matched, and kept, in any case.
    expect(boardQueryKey(read('seats=2'))).toBe(boardQueryKey(read('minSeats=2')));
    expect(boardQueryKey(read('region=Ladakh&difficulty=MODERATE'))).toBe(
      boardQueryKey(read('difficulty=moderate&region=ladakh')),
    );
  });
});

describe('filtering and grouping', () => {
  const list = [
    departure({ id: 'a', startDate: '2027-06-05', seatsLeft: 8 }),
    departure({ id: 'b', startDate: '2027-06-20', status: 'filling', seatsLeft: 2 }),
    departure({ id: 'c', startDate: '2027-07-05', status: 'sold_out', seatsLeft: 0 }),
    departure({ id: 'd', startDate: '2027-07-09', tripSlug: 'sample-expedition', seatsLeft: null }),
    departure({ id: 'e', startDate: '2027-08-01', status: 'cancelled', seatsLeft: 5 }),
  ];
  const ids = (filters: Parameters<typeof applyBoardFilters>[1]) =>
    applyBoardFilters(list, filters, catalogue).map((d) => d.id);

  it('keeps the departures that match every filter given', () => {
    expect(ids({})).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(ids({ month: '2027-07' })).toEqual(['c', 'd']);
    expect(ids({ type: 'expedition' })).toEqual(['d']);
    expect(ids({ trip: 'sample-trek' })).toEqual(['a', 'b', 'c', 'e']);
    // Seats: open for enquiries with that many left, or seats not published (a guide confirms).
    expect(ids({ minSeats: 1 })).toEqual(['a', 'b', 'd']);
    expect(ids({ minSeats: 4 })).toEqual(['a', 'd']);
    expect(ids({ month: '2027-06', type: 'trek', minSeats: 4 })).toEqual(['a']);
    expect(ids({ from: '2027-06-20', to: '2027-07-09' })).toEqual(['b', 'c', 'd']);
    expect(ids({ from: '2027-07-09', to: '2027-07-09' })).toEqual(['d']);
    // The trip's facts: both fixture trips are Moderate, in Ladakh, 2 days long.
    expect(ids({ difficulty: 'Moderate', region: 'ladakh', minDays: 2, maxDays: 2 })).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
    ]);
    expect(ids({ difficulty: 'Easy' })).toEqual([]);
    expect(ids({ region: 'sikkim' })).toEqual([]);
    expect(ids({ minDays: 3 })).toEqual([]);
    expect(ids({ maxDays: 1 })).toEqual([]);
    // A price at or below; a departure without one is left out.
    expect(ids({ maxPriceInr: 15000 })).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(ids({ maxPriceInr: 14999 })).toEqual([]);
  });

  it('groups by the month a departure starts in, months in order', () => {
    expect(byMonth(list).map((g) => [g.month, g.departures.map((d) => d.id)])).toEqual([
      ['2027-06', ['a', 'b']],
      ['2027-07', ['c', 'd']],
      ['2027-08', ['e']],
    ]);
  });
});

describe('the board of a full catalogue', () => {
  const real = loadCatalogue(path.join(projectRoot, 'content'));
  const seeded = seedDepartures(real, now).map((d): Departure => ({
    ...d,
    tripName: real.trips.find((p) => p.trip.slug === d.tripSlug)!.trip.name,
    tripUrl: `https://example.test/${d.tripSlug}`,
    note: undefined,
  }));
  const live = { state: 'live', departures: seeded.sort((a, b) => a.startDate.localeCompare(b.startDate)) } as const;

  it('opens months only until a few departures are in view, so a phone gets a short page', () => {
    const board = boardMain(real, live, { query: read(''), now }).value;
    const months = [...board.matchAll(/<details class="board-month"[^>]*>/g)].map((m) => m[0]);
    expect(seeded.length).toBeGreaterThan(60);
    expect(months.length).toBe(byMonth(seeded).length);
    const open = months.filter((m) => m.includes(' open'));
    expect(open.length).toBeGreaterThan(0);
    const openCards = byMonth(seeded)
      .slice(0, open.length)
      .reduce((n, g) => n + g.departures.length, 0);
    expect(openCards).toBeLessThan(20);
  });

  it('follows the same filters in Markdown, grouped by month, with the filters explained', () => {
    const md = departuresMarkdown(real, live, { query: read('month=2027-06&type=trek&seats=4'), now });
    // Each row: its trip with what it is chosen by, and the enquiry of that date for the party searched for.
    expect(md).toMatch(
      /\| \[[^\]]+\]\(https:\/\/example\.test\/[a-z-]+\) \((Easy|Moderate|Difficult|Very Difficult) trek · \d+ days · [^)]+\) \|/,
    );
    expect(md).toMatch(
      /\[Enquire for this date\]\(https:\/\/example\.test\/treks\/[a-z-]+\/enquire\?departure=[a-z0-9-]+&groupSize=4\)/,
    );
    expect(md).toMatch(/^# Departures: June 2027, treks, at least 4 seats left/);
    const headings = [...md.matchAll(/^## (.*)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(['June 2027', 'Filters', 'How to book', 'Trips']);
    const rows = md.split('\n').filter((l) => /^\| \d/.test(l));
    const expected = applyBoardFilters(seeded, { month: '2027-06', type: 'trek', minSeats: 4 }, real);
    expect(rows).toHaveLength(expected.length);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toMatch(/\| (Open|Filling fast) \| (\d+) of/);
    expect(md).toContain('`seats=N`');
    for (const name of [
      'from',
      'to',
      'type',
      'difficulty',
      'region',
      'minDays',
      'maxDays',
      'minSeats',
      'maxPriceInr',
      'trip',
    ])
      expect(md).toContain(`- \`${name}\`: `);
    const all = departuresMarkdown(real, live, { query: read(''), now });
    expect(all.split('\n').filter((l) => /^\| \d/.test(l))).toHaveLength(seeded.length);
  });
});
