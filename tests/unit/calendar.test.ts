/**
 * The calendars as a calendar app reads them: RFC 5545's CRLF after every line, the last one
 * too; at least one component, so a search that finds nothing is still a valid calendar (India's
 * VTIMEZONE, never an invented event); the calendar's properties before its components. Each
 * calendar is read back by ical.js (Mozilla's parser, Thunderbird's), which must find every
 * departure as an all-day event.
 */
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { departuresCalendar } from '../../service/calendar/departures.ts';
import type { Departure } from '../../domain/schemas/departure.ts';
import { loadCatalogue } from '../helpers/content.ts';

const catalogue = loadCatalogue();
const now = new Date('2026-11-29T10:00:00Z');

const departure = (id: string, startDate: string, endDate: string, status: Departure['status']): Departure => ({
  id,
  tripSlug: 'sample-trek',
  tripName: 'Sample Trek',
  tripUrl: 'https://example.test/treks/sample-trek',
  startDate,
  endDate,
  status,
  seatsTotal: 12,
  seatsLeft: status === 'sold_out' ? 0 : 4,
  priceInr: 15000,
  ...(status === 'cancelled'
    ? { note: 'Road closed; a long note, long enough to be folded over more than one line' }
    : {}),
});

/** The calendar's lines, as RFC 5545 3.1 ends them: each with CRLF, the last one too. */
function crlfLines(text: string): string[] {
  expect(text.endsWith('END:VCALENDAR\r\n'), 'the last line ends with CRLF').toBe(true);
  const lines = text.slice(0, -2).split('\r\n');
  for (const line of lines) expect(line, 'no bare CR or LF inside a line').not.toMatch(/[\r\n]/);
  return lines;
}

/** The calendar as ical.js reads it, with the rules of RFC 5545 3.4 and 3.6 that it does not check itself. */
function parsed(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  expect(calendar.name).toBe('vcalendar');
  expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
  expect(calendar.getFirstPropertyValue('prodid')).toBeTruthy();
  expect(calendar.getAllSubcomponents().length, 'a VCALENDAR holds at least one component').toBeGreaterThan(0);
  // calprops, then components: no calendar property after the first BEGIN of a component.
  const lines = crlfLines(text).filter((line) => !/^[ \t]/.test(line));
  const body = lines.slice(1, -1);
  const firstComponent = body.findIndex((line) => line.startsWith('BEGIN:'));
  const depths = body.map((_, i) => {
    const before = body.slice(0, i);
    return before.filter((l) => l.startsWith('BEGIN:')).length - before.filter((l) => l.startsWith('END:')).length;
  });
  body.forEach((line, i) => {
    if (i > firstComponent && depths[i] === 0)
      expect(line, 'after the first component, only components').toMatch(/^BEGIN:/);
  });
  return calendar;
}

describe('the departure calendars', () => {
  it('end every line with CRLF, the last one included, and read back with every departure an all-day event', () => {
    const departures = [
      departure('sample-trek-2027-09-23', '2027-09-23', '2027-09-27', 'open'),
      departure('sample-trek-2027-10-07', '2027-10-07', '2027-10-11', 'sold_out'),
      departure('sample-trek-2027-10-21', '2027-10-21', '2027-10-25', 'cancelled'),
    ];
    const text = departuresCalendar(catalogue, departures, {}, now);
    const calendar = parsed(text);
    const events = calendar.getAllSubcomponents('vevent').map((e) => new ICAL.Event(e));
    expect(events.map((e) => e.uid)).toEqual(
      departures.map((d) => `departure-${d.id}@${new URL(catalogue.site.siteUrl).hostname}`),
    );
    for (const [i, event] of events.entries()) {
      expect(event.startDate.isDate, 'an all-day event').toBe(true);
      expect(event.startDate.toString()).toBe(departures[i]!.startDate);
      // DTEND is the day after the last day (exclusive).
      expect(event.endDate.toString()).toBe(
        new Date(Date.parse(`${departures[i]!.endDate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10),
      );
    }
    expect(calendar.getAllSubcomponents('vevent')[2]!.getFirstPropertyValue('status')).toBe('CANCELLED');
    // A folded line is unfolded whole.
    expect(events[2]!.description).toContain('long enough to be folded over more than one line');
  });

  it('a search that finds nothing is still a valid calendar: one component, India’s time zone, and no event', () => {
    const text = departuresCalendar(catalogue, [], {}, now);
    const calendar = parsed(text);
    expect(calendar.getAllSubcomponents('vevent')).toEqual([]);
    const zones = calendar.getAllSubcomponents('vtimezone');
    expect(zones).toHaveLength(1);
    const zone = new ICAL.Timezone(zones[0]!);
    expect(zone.tzid).toBe('Asia/Kolkata');
    // IST: UTC+5:30, with no daylight saving.
    const noon = ICAL.Time.fromData({ year: 2027, month: 7, day: 1, hour: 12, minute: 0, second: 0 }, zone);
    expect(zone.utcOffset(noon)).toBe(5.5 * 3600);
    // One trip's calendar, too.
    const trip = catalogue.trips.find((p) => p.trip.slug === 'sample-trek')!;
    expect(parsed(departuresCalendar(catalogue, [], { page: trip }, now)).getAllSubcomponents()).toHaveLength(1);
  });
});
