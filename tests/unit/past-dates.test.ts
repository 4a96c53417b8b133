/**
 * "Dates you want" read for dates that have passed (service/bookings/past-dates.ts): the dates
 * with a year in the forms the site writes and people type, the latest of them counting, a month
 * to its last day, today in India; text naming no date with a year passed on as written.
 */
import { describe, expect, it } from 'vitest';
import { checkEnquiry } from '../../service/bookings/enquiry-schema.ts';
import { lastDayNamed, namesOnlyPastDates, pastDatesMessage } from '../../service/bookings/past-dates.ts';
import { loadCatalogue } from '../helpers/content.ts';

// 29 Nov 2026, 20:00 UTC: already 30 Nov in India.
const now = new Date('2026-11-29T20:00:00Z');

describe('the latest day a text names', () => {
  it.each([
    ['15 March 2020', '2020-03-15'],
    ['15th March 2020', '2020-03-15'],
    ['March 15, 2020', '2020-03-15'],
    ['March 2020', '2020-03-31'],
    ['feb 2028', '2028-02-29'],
    ['2027-09-23', '2027-09-23'],
    ['2027-09', '2027-09-30'],
    ['23–27 Sept 2027', '2027-09-27'],
    ['28 Sept – 2 Oct 2027', '2027-10-02'],
    ['23 Sept 2027 to 27 Sept 2027', '2027-09-27'],
    ['hampta-pass-trek-2027-06-05', '2027-06-05'],
    ['October 2025 or else May 2027', '2027-05-31'],
  ])('%s → %s', (text, day) => expect(lastDayNamed(text)).toBe(day));

  it.each(['late June', 'flexible', 'after the monsoon', 'we may come', '2027-13-01', ''])(
    'names none in "%s"',
    (text) => expect(lastDayNamed(text)).toBeNull(),
  );
});

describe('dates that have passed', () => {
  it('counts today in India as not passed, the day before as passed, and a month to its end', () => {
    expect(namesOnlyPastDates('30 Nov 2026', now)).toBe(false);
    expect(namesOnlyPastDates('29 Nov 2026', now)).toBe(true);
    expect(namesOnlyPastDates('November 2026', now)).toBe(false);
    expect(namesOnlyPastDates('October 2026', now)).toBe(true);
    expect(namesOnlyPastDates('late June', now)).toBe(false);
  });

  it('refuses an enquiry for them with one sentence at the field, and takes one for dates to come', () => {
    const catalogue = loadCatalogue();
    const enquiry = { tripSlug: 'sample-trek', name: 'Asha Rao', phone: '+91 98765 43210', groupSize: 2 };
    expect(checkEnquiry({ ...enquiry, preferredDeparture: '15 March 2020' }, catalogue, [], now)).toEqual({
      ok: false,
      errors: [{ field: 'preferredDeparture', message: pastDatesMessage }],
    });
    expect(checkEnquiry({ ...enquiry, preferredDeparture: 'October 2027' }, catalogue, [], now).ok).toBe(true);
  });
});
