/** The site's pure rules: Indian formatting, the altitude profile's geometry, the filters and the peak table. */
import { describe, expect, it } from 'vitest';
import { altitudeProfile, describeProfile } from '../../src/components/altitude-profile.ts';
import { defaultPeakSort, otherSortOrders, peakFilterStyles, peakRowFilters, sortLink, sortPagePath, sortPeaks } from '../../src/components/peak-table.ts';
import { cardFilters, filterToken, filterValues, finderStyles, regionsOf } from '../../src/components/trip-finder.ts';
import { jsonLdText } from '../../src/components/structured-data.ts';
import { formatAltitudeChange, formatDate, formatInr, formatMetres } from '../../src/lib/format.ts';
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

describe('altitude profile', () => {
  const days = [
    { day: 1, from: 'Manali', to: 'Chika', startAltitudeM: 2050, endAltitudeM: 3080 },
    { day: 2, from: 'Chika', to: 'Balu ka Ghera', startAltitudeM: 3080, endAltitudeM: 3600 },
    { day: 3, from: 'Balu ka Ghera', to: 'Shea Goru', startAltitudeM: 3600, endAltitudeM: 3950 },
  ];

  it('has a point for the start and each night, higher altitudes drawn higher, inside the plot', () => {
    const chart = altitudeProfile(days, 4270);
    expect(chart.points.map((p) => p.altitudeM)).toEqual([2050, 3080, 3600, 3950]);
    const ys = chart.points.map((p) => p.y);
    expect(ys).toEqual([...ys].sort((a, b) => b - a));
    for (const p of chart.points) {
      expect(p.x).toBeGreaterThanOrEqual(chart.plot.left);
      expect(p.x).toBeLessThanOrEqual(chart.plot.right);
      expect(p.y).toBeGreaterThanOrEqual(chart.plot.top);
      expect(p.y).toBeLessThanOrEqual(chart.plot.bottom);
    }
    expect(chart.line.startsWith('M')).toBe(true);
  });

  it('marks a high point crossed during a day, and only when it is above every camp', () => {
    expect(altitudeProfile(days, 4270).highPoint?.label).toBe('4,270 m');
    expect(altitudeProfile(days, 3950).highPoint).toBeNull();
    expect(describeProfile(days, 4270)).toContain('Highest point reached during the trip: 4,270 m');
  });

  it('adds a point when a day starts somewhere other than the last camp', () => {
    const jump = [...days, { day: 4, from: 'Roadhead', to: 'Town', startAltitudeM: 3000, endAltitudeM: 2000 }];
    expect(altitudeProfile(jump, null).points.map((p) => p.altitudeM)).toEqual([2050, 3080, 3600, 3950, 3000, 2000]);
  });

  it('draws every real itinerary', () => {
    for (const page of loadCatalogue(realContent).trips) {
      const chart = altitudeProfile(page.content.itinerary, page.trip.summitAltitudeM);
      expect(chart.points.length, page.trip.slug).toBeGreaterThan(page.content.itinerary.length);
      expect(chart.yTicks.length, page.trip.slug).toBeGreaterThanOrEqual(2);
    }
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
      for (const value of values) expect(css).toContain(`input[name="${name}"][value="${value}"]:checked) .cards > li:not([data-${name}~="${value}"])`);
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
      expect(row.max.split(' ').filter(Boolean).every((limit) => peak.altitudeM <= Number(limit))).toBe(true);
      expect(row.first6000).toBe(peak.firstSixThousanderCandidate ? 'yes' : 'no');
    }
  });
});

describe('JSON-LD text', () => {
  it('cannot close its script element', () => {
    expect(jsonLdText({ name: '</script><script>alert(1)</script>' })).not.toContain('</script');
  });
});
