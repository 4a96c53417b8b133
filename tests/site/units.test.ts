/** The site's pure rules: Indian formatting, the filters and the peak table (the altitude profile has its own file). */
import { describe, expect, it } from 'vitest';
import {
  defaultPeakSort,
  otherSortOrders,
  peakFilterStyles,
  peakRowFilters,
  sortLink,
  sortPagePath,
  sortPeaks,
} from '../../src/components/peak-table.ts';
import { cardFilters, filterToken, filterValues, finderStyles, regionsOf } from '../../src/components/trip-finder.ts';
import { jsonLdText } from '../../domain/page/structured-data.ts';
import { formatAltitudeChange, formatDate, formatInr, formatMetres } from '../../domain/format.ts';
import { loadCatalogue, realContent } from '../helpers/content.ts';

describe('format', () => {
  it('writes rupees the Indian way, and says so when there is no price', () => {
    expect(formatInr(125000)).toBe('₹1,25,000');
    expect(formatInr(16500)).toBe('₹16,500');
    expect(formatInr(12345678)).toBe('₹1,23,45,678');
    expect(formatInr(null)).toBe('Price on request');
  });

  it('writes metres, dates and height changes', () => {
    expect(formatMetres(6250)).toBe('6,250 m');
    expect(formatDate('2026-12-05')).toBe('5 Dec 2026');
    expect(formatAltitudeChange(2050, 3080)).toBe('+1,030 m');
    expect(formatAltitudeChange(3950, 3380)).toBe('−570 m');
  });
});

describe('trip filters', () => {
  const { trips } = loadCatalogue(realContent);

  it('gives each card the tokens of every state its region names, its band and its length', () => {
    const both = trips.find((t) => t.trip.region.includes('Uttarakhand') && t.trip.region.includes('Himachal Pradesh'));
    if (both) expect(regionsOf(both)).toEqual(['Himachal Pradesh', 'Uttarakhand']);
    for (const page of trips) {
      const tokens = cardFilters(page);
      expect(tokens.difficulty).toBe(filterToken(page.trip.difficulty));
      for (const region of regionsOf(page)) expect(tokens.region.split(' ')).toContain(filterToken(region));
      expect(filterValues.days).toContain(tokens.days);
    }
  });

  it('has a CSS rule for every value a filter offers', () => {
    const css = finderStyles();
    for (const [name, values] of Object.entries(filterValues)) {
      for (const value of values)
        expect(css).toContain(
          `input[name="${name}"][value="${value}"]:checked) .cards > li:not([data-${name}~="${value}"])`,
        );
    }
  });
});

describe('peak table', () => {
  const { peaks } = loadCatalogue(realContent);

  it('sorts by altitude, highest first, on /peak-data, and every other order on its own page', () => {
    const sorted = sortPeaks(peaks, defaultPeakSort).map((p) => p.altitudeM);
    expect(sorted).toEqual([...sorted].sort((a, b) => b - a));
    expect(sortPeaks(peaks, { sort: 'grade', order: 'asc' })[0]?.technicalGrade.startsWith('F')).toBe(true);
    expect(sortPagePath(defaultPeakSort)).toBe('/peak-data');
    expect(otherSortOrders()).toHaveLength(11);
    expect(new Set(otherSortOrders().map(sortPagePath)).size).toBe(11);
  });

  it('links a column to its ascending page, or to the other direction of the current one', () => {
    expect(sortLink(defaultPeakSort, 'altitude')).toBe('/peak-data/by/altitude-asc');
    expect(sortLink(defaultPeakSort, 'name')).toBe('/peak-data/by/name-asc');
    expect(sortLink({ sort: 'altitude', order: 'asc' }, 'altitude')).toBe('/peak-data');
  });

  it('marks each row for the filters, and has a CSS rule for each', () => {
    const regions = [...new Set(peaks.map((p) => p.region))];
    const css = peakFilterStyles(regions);
    for (const peak of peaks) {
      const row = peakRowFilters(peak);
      expect(css).toContain(`[value="${row.region}"]`);
      expect(
        row.max
          .split(' ')
          .filter(Boolean)
          .every((limit) => peak.altitudeM <= Number(limit)),
      ).toBe(true);
      expect(row.first6000).toBe(peak.firstSixThousanderCandidate ? 'yes' : 'no');
    }
  });
});

describe('JSON-LD text', () => {
  it('cannot close its script element', () => {
    expect(jsonLdText({ name: '</script><script>alert(1)</script>' })).not.toContain('</script');
  });
});
