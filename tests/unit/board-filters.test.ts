/**
 * The departures board's filters (service/departures/board-filters.ts): the values each accepts,
 * what is ignored, one canonical address and kept-copy key per view however the address was
 * written, and the filtering and grouping the board, its Markdown twin and departures.md share.
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
  it('accepts each filter\'s values, and a month from this month (in India) for 36 months', () => {
    expect(read('month=2027-06&type=trek&seats=4&trip=sample-trek')).toEqual({ filters: { month: '2027-06', type: 'trek', seats: 4, trip: 'sample-trek' }, ignored: [] });
    const months = acceptedMonths(now);
    expect(months).toHaveLength(monthsAhead);
    expect(months[0]).toBe('2026-11');
    expect(months.at(-1)).toBe('2029-10');
    // Just after midnight in India it is already the next month there.
    expect(acceptedMonths(new Date('2026-11-30T19:00:00Z'))[0]).toBe('2026-12');
    for (const n of seatThresholds) expect(read(`seats=${n}`).filters.seats).toBe(n);
  });

  it('treats empty values (the form\'s "any") as no filter, and ignores parameters of other names', () => {
    expect(read('month=&type=&seats=&trip=&utm_source=x&z=1')).toEqual({ filters: {}, ignored: [] });
  });

  it('ignores values it does not accept, and says which filters without repeating them', () => {
    const query = read('month=2026-10&type=Trek&seats=3&trip=<script>');
    expect(query).toEqual({ filters: {}, ignored: ['month', 'type', 'seats', 'trip'] });
    const sentence = ignoredSentence(query.ignored);
    expect(sentence).not.toContain('<script>');
    expect(sentence).not.toContain('2026-10');
    for (const bad of ['2029-11', '2027-6', '2027-13', '202706', ' 2027-06x']) expect(read(`month=${encodeURIComponent(bad)}`).ignored).toEqual(['month']);
  });

  it('writes one canonical address, in one order, whatever order and spelling it was given in', () => {
    const a = read('trip=sample-trek&seats=2&month=2027-06&type=trek&utm=1');
    const b = read('type=trek&month=2027-06&trip=sample-trek&seats=2&seats=9');
    expect(boardSearch(a.filters)).toBe('?month=2027-06&type=trek&seats=2&trip=sample-trek');
    expect(boardQueryKey(a)).toBe(boardQueryKey(b));
    expect(boardSearch({})).toBe('');
    expect(boardQueryKey(read('month=bad'))).toBe(boardQueryKey(read('month=other-bad')));
    expect(boardQueryKey(read('month=bad'))).not.toBe(boardQueryKey(read('')));
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
  const ids = (filters: Parameters<typeof applyBoardFilters>[1]) => applyBoardFilters(list, filters, catalogue).map((d) => d.id);

  it('keeps the departures that match every filter given', () => {
    expect(ids({})).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(ids({ month: '2027-07' })).toEqual(['c', 'd']);
    expect(ids({ type: 'expedition' })).toEqual(['d']);
    expect(ids({ trip: 'sample-trek' })).toEqual(['a', 'b', 'c', 'e']);
    // Seats: open for enquiries with that many left, or seats not published (a guide confirms).
    expect(ids({ seats: 1 })).toEqual(['a', 'b', 'd']);
    expect(ids({ seats: 4 })).toEqual(['a', 'd']);
    expect(ids({ month: '2027-06', type: 'trek', seats: 4 })).toEqual(['a']);
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
  const seeded = seedDepartures(real, now).map(
    (d): Departure => ({ ...d, tripName: real.trips.find((p) => p.trip.slug === d.tripSlug)!.trip.name, tripUrl: `https://example.test/${d.tripSlug}`, note: undefined }),
  );
  const live = { state: 'live', departures: seeded.sort((a, b) => a.startDate.localeCompare(b.startDate)) } as const;

  it('opens months only until a few departures are in view, so a phone gets a short page', () => {
    const board = boardMain(real, live, { query: read(''), now }).value;
    const months = [...board.matchAll(/<details class="board-month"[^>]*>/g)].map((m) => m[0]);
    expect(seeded.length).toBeGreaterThan(60);
    expect(months.length).toBe(byMonth(seeded).length);
    const open = months.filter((m) => m.includes(' open'));
    expect(open.length).toBeGreaterThan(0);
    const openCards = byMonth(seeded).slice(0, open.length).reduce((n, g) => n + g.departures.length, 0);
    expect(openCards).toBeLessThan(20);
  });

  it('follows the same filters in Markdown, grouped by month, with the filters explained', () => {
    const md = departuresMarkdown(real, live, { query: read('month=2027-06&type=trek&seats=4'), now });
    expect(md).toMatch(/^# Departures: June 2027, treks, at least 4 seats left/);
    const headings = [...md.matchAll(/^## (.*)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(['June 2027', 'Filters', 'How to book', 'Trips']);
    const rows = md.split('\n').filter((l) => /^\| \d/.test(l));
    const expected = applyBoardFilters(seeded, { month: '2027-06', type: 'trek', seats: 4 }, real);
    expect(rows).toHaveLength(expected.length);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toMatch(/\| (Open|Filling fast) \| (\d+) of/);
    expect(md).toContain('`seats=N`');
    const all = departuresMarkdown(real, live, { query: read(''), now });
    expect(all.split('\n').filter((l) => /^\| \d/.test(l))).toHaveLength(seeded.length);
  });
});
