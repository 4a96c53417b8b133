/**
 * The site's numbers and dates are written by hand (domain/format.ts), as ICU writes them for
 * Indian English, so that a live function loads no ICU data at a cold start. Each form is held
 * here to Intl's own output for the same value, over many values: a change in the locale data
 * of a Node release fails here, not on a page.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDays,
  formatHours,
  formatIndiaClock,
  formatIndiaDateTime,
  formatInr,
  formatKm,
  formatMetres,
  formatMonth,
  isWrittenDateRange,
  formatDateRange,
} from '../../domain/format.ts';
import { todayInIndia } from '../../service/departures/today.ts';

const intl = {
  inr: new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 0 }),
  integer: new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 }),
  decimal: new Intl.NumberFormat('en-IN', { maximumFractionDigits: 1 }),
  day: new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }),
  month: new Intl.DateTimeFormat('en-IN', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
  indiaDateTime: new Intl.DateTimeFormat('en-IN', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'Asia/Kolkata',
  }),
  indiaClock: new Intl.DateTimeFormat('en-IN', { timeStyle: 'short', timeZone: 'Asia/Kolkata' }),
  indiaDay: new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Asia/Kolkata',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }),
};

const runs = { numRuns: 2000 };
/** Moments from 1970 to 2100, the dates the site writes. */
const moments = fc.date({
  min: new Date('1970-01-01T00:00:00Z'),
  max: new Date('2100-12-31T23:59:59Z'),
  noInvalidDate: true,
});
/** Whole numbers as prices, altitudes and counts come, small and large. */
const wholes = fc.oneof(
  fc.integer({ min: 0, max: 9999 }),
  fc.integer({ min: 0, max: 2 ** 53 - 1 }),
  fc.integer({ min: -100_000, max: 0 }),
);
/** Numbers with a fraction as distances and hours come, some exactly on a half. */
const fractions = fc.oneof(
  fc.double({ min: 0, max: 1e9, noNaN: true }),
  fc.integer({ min: 0, max: 100_000 }).map((n) => n / 100),
  fc.integer({ min: 0, max: 100_000 }).map((n) => n / 20),
  fc.integer({ min: -10_000, max: 0 }).map((n) => n / 20),
);

describe('numbers, as Intl writes them for en-IN', () => {
  it('prices in rupees', () => {
    fc.assert(
      fc.property(wholes, (n) => formatInr(n) === intl.inr.format(n)),
      runs,
    );
    expect(formatInr(125000)).toBe('₹1,25,000');
    expect(formatInr(null)).toBe('Price on request');
  });

  it('whole numbers with their units', () => {
    fc.assert(
      fc.property(wholes, (n) => {
        expect(formatMetres(n)).toBe(`${intl.integer.format(n)} m`);
        expect(formatDays(n)).toBe(n === 1 ? '1 day' : `${intl.integer.format(n)} days`);
      }),
      runs,
    );
  });

  it('numbers with one decimal, rounded half away from zero', () => {
    fc.assert(
      fc.property(fractions, (n) => {
        expect(formatKm(n)).toBe(`${intl.decimal.format(n)} km`);
        expect(formatHours(n)).toBe(`${intl.decimal.format(n)} h`);
      }),
      runs,
    );
    expect(formatKm(12.45)).toBe('12.5 km');
    expect(formatKm(100000.25)).toBe('1,00,000.3 km');
    // Where JavaScript writes a number with an exponent.
    expect(formatKm(1e-7)).toBe('0 km');
    expect(formatMetres(1e21)).toBe(`${intl.integer.format(1e21)} m`);
  });
});

describe('dates and times, as Intl writes them for en-IN', () => {
  it('a date, a range and a month', () => {
    fc.assert(
      fc.property(moments, (moment) => {
        const iso = moment.toISOString().slice(0, 10);
        expect(formatDate(iso)).toBe(intl.day.format(new Date(`${iso}T00:00:00Z`)));
        expect(formatMonth(iso.slice(0, 7))).toBe(intl.month.format(new Date(`${iso.slice(0, 7)}-01T00:00:00Z`)));
        expect(isWrittenDateRange(formatDateRange(iso, iso))).toBe(true);
      }),
      runs,
    );
    expect(formatDate('2026-09-05')).toBe('5 Sept 2026');
    expect(formatDate('not a date')).toBe('not a date');
  });

  it("a moment in India's time, and today's date there", () => {
    fc.assert(
      fc.property(moments, (moment) => {
        expect(formatIndiaDateTime(moment)).toBe(intl.indiaDateTime.format(moment));
        expect(formatIndiaClock(moment)).toBe(`${intl.indiaClock.format(moment)} IST`);
        expect(todayInIndia(moment)).toBe(intl.indiaDay.format(moment));
      }),
      runs,
    );
  });
});
