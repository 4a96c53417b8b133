import { describe, expect, it } from 'vitest';
import { buildCatalogue, CatalogueError } from '../../domain/catalogue/index.ts';
import { imfBandFor, isFirstSixThousanderCandidate } from '../../domain/catalogue/peaks.ts';
import { fixtureContent, loadCatalogue, readContent } from '../helpers/content.ts';

describe('catalogue', () => {
  it('builds trips with absolute page and Markdown URLs from the site URL', () => {
    const c = loadCatalogue(fixtureContent, 'https://example.test/');
    const trek = c.trips.find((t) => t.trip.slug === 'sample-trek');
    expect(trek?.trip.url).toBe('https://example.test/treks/sample-trek');
    expect(trek?.trip.markdownUrl).toBe('https://example.test/treks/sample-trek.md');
    expect(c.trips.find((t) => t.trip.type === 'expedition')?.path).toBe('/expeditions/sample-expedition');
  });

  it('derives band, royalty, the first-6,000 m rule and the operator link', () => {
    const c = loadCatalogue();
    const sample = c.peaks.find((p) => p.id === 'sample-peak');
    expect(sample).toMatchObject({
      imfBand: '<6500',
      imfRoyaltyUsdPartyOf2: 300,
      firstSixThousanderCandidate: true,
      operatorOperated: true,
    });
    expect(sample?.operatorUrl).toBe('https://example.test/expeditions/sample-expedition');
    const other = c.peaks.find((p) => p.id === 'other-peak');
    expect(other).toMatchObject({
      imfBand: '7001+',
      imfRoyaltyUsdPartyOf2: 800,
      firstSixThousanderCandidate: false,
      operatorOperated: false,
      operatorUrl: null,
    });
  });

  it('bands altitudes at the IMF boundaries', () => {
    expect(imfBandFor(6500)).toBe('<6500');
    expect(imfBandFor(6501)).toBe('6501-7000');
    expect(imfBandFor(7000)).toBe('6501-7000');
    expect(imfBandFor(7001)).toBe('7001+');
  });

  it('keeps closed, technical, long or low peaks out of the first-6,000 m filter', () => {
    const base = readContent(fixtureContent).peaks.find((p) => p.id === 'sample-peak')!.data;
    expect(isFirstSixThousanderCandidate(base)).toBe(true);
    expect(isFirstSixThousanderCandidate({ ...base, openPeak: false })).toBe(false);
    expect(isFirstSixThousanderCandidate({ ...base, technicalGrade: 'AD' })).toBe(false);
    expect(isFirstSixThousanderCandidate({ ...base, typicalDurationDays: 21 })).toBe(false);
    expect(isFirstSixThousanderCandidate({ ...base, altitudeM: 5900 })).toBe(false);
  });

  it('names the file and field when a peak links to a trip that does not exist', () => {
    const source = readContent(fixtureContent);
    const i = source.peaks.findIndex((p) => p.id === 'other-peak');
    source.peaks[i] = { ...source.peaks[i]!, data: { ...source.peaks[i]!.data, operatorTrip: 'no-such-trip' } };
    expect(() => buildCatalogue(source, 'https://example.test')).toThrow(CatalogueError);
    expect(() => buildCatalogue(source, 'https://example.test')).toThrow(
      /other-peak\.yaml: field "operatorTrip" names "no-such-trip", but there is no content\/trips\/no-such-trip\.md/,
    );
  });

  it('names the file and field when an expedition climbs a peak that does not exist', () => {
    const source = readContent(fixtureContent);
    const i = source.trips.findIndex((t) => t.id === 'sample-expedition');
    source.trips[i] = { ...source.trips[i]!, data: { ...source.trips[i]!.data, peak: 'no-such-peak' } };
    expect(() => buildCatalogue(source, 'https://example.test')).toThrow(
      /sample-expedition\.md: field "peak" names "no-such-peak"/,
    );
  });
});
