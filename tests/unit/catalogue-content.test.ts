/**
 * The published catalogue itself: counts, coverage, cross-links and the facts every record
 * must carry (own coordinates in the Indian Himalaya or none, a first ascent or an explicit
 * unknown, an independent reference, the right IMF fee, distances that add up).
 */
import { describe, expect, it } from 'vitest';
import { isFirstSixThousanderCandidate } from '../../domain/catalogue/peaks.ts';
import { isOwnPage, operatorDomains } from '../../domain/catalogue/references.ts';
import { difficulties } from '../../domain/schemas/vocabulary.ts';
import { loadCatalogue, readContent, realContent } from '../helpers/content.ts';

const source = readContent(realContent);
const catalogue = loadCatalogue(realContent, 'https://example.test');

describe('published catalogue', () => {
  it('holds 12 trips and 23 peaks', () => {
    expect(catalogue.trips).toHaveLength(12);
    expect(catalogue.peaks).toHaveLength(23);
  });

  it('covers every difficulty band, several regions, and prices at least one trip on request', () => {
    expect(new Set(catalogue.trips.map((t) => t.trip.difficulty))).toEqual(new Set(difficulties));
    for (const region of ['Ladakh', 'Himachal', 'Uttarakhand', 'Sikkim']) {
      expect(
        catalogue.trips.some((t) => t.trip.region.includes(region)),
        region,
      ).toBe(true);
    }
    expect(catalogue.trips.some((t) => t.trip.priceInr === null)).toBe(true);
  });

  it('has at least 4 expeditions, each climbing a dataset peak that links back to it', () => {
    const expeditions = catalogue.trips.filter((t) => t.trip.type === 'expedition');
    expect(expeditions.length).toBeGreaterThanOrEqual(4);
    for (const { trip, content } of expeditions) {
      const peak = catalogue.peaks.find((p) => p.id === content.peak);
      expect(peak, trip.slug).toBeDefined();
      expect(peak?.operatorUrl).toBe(trip.url);
      expect(peak?.technicalGrade).toBe(trip.alpineGrade);
      expect(peak?.altitudeM).toBe(trip.summitAltitudeM);
    }
    const operated = catalogue.peaks.filter((p) => p.operatorOperated);
    expect(operated.map((p) => p.id).sort()).toEqual(expeditions.map((t) => t.content.peak).sort());
  });

  it('gives every peak its own coordinates inside the Indian Himalaya (or none), a first ascent or an explicit unknown, and a reference', () => {
    for (const peak of catalogue.peaks) {
      if (peak.coordinates) {
        expect(peak.coordinates.latitude, peak.id).toBeGreaterThanOrEqual(26);
        expect(peak.coordinates.latitude, peak.id).toBeLessThanOrEqual(37);
        expect(peak.coordinates.longitude, peak.id).toBeGreaterThanOrEqual(72);
        expect(peak.coordinates.longitude, peak.id).toBeLessThanOrEqual(97);
      }
      expect(peak.firstAscent === 'unknown' || typeof peak.firstAscent === 'object', peak.id).toBe(true);
      expect(peak.references.length, peak.id).toBeGreaterThanOrEqual(1);
      expect(peak.country).toBe('India');
    }
    const located = catalogue.peaks.filter((p) => p.coordinates);
    expect(new Set(located.map((p) => `${p.coordinates!.latitude},${p.coordinates!.longitude}`)).size).toBe(
      located.length,
    );
  });

  it('cites something other than the operator for every peak and trip', () => {
    const own = operatorDomains(catalogue.site);
    for (const peak of catalogue.peaks)
      expect(
        peak.references.some((r) => !isOwnPage(r.url, own)),
        peak.id,
      ).toBe(true);
    for (const { trip, content } of catalogue.trips)
      expect(
        content.sources.some((r) => !isOwnPage(r.url, own)),
        trip.slug,
      ).toBe(true);
  });

  it('charges the IMF trekking-peak fee to trekking peaks and the band fee to the rest', () => {
    for (const peak of catalogue.peaks) {
      if (peak.feeCategory === 'trekking-peak') {
        expect(peak.imfBand, peak.id).toBeNull();
        expect(peak.imfRoyaltyUsdPartyOf2, peak.id).toBe(catalogue.royalty.trekkingPeak.partyOf2);
      } else {
        expect(peak.imfRoyaltyUsdPartyOf2, peak.id).toBe(catalogue.royalty.partyOf2[peak.imfBand!]);
      }
    }
  });

  it("keeps each trip's daily distances within its stated total, and Hampta Pass's equal to it", () => {
    for (const { trip, content } of catalogue.trips) {
      if (content.distanceKm == null) continue;
      const known = content.itinerary.map((d) => d.distanceKm ?? 0).reduce((a, b) => a + b, 0);
      expect(known, trip.slug).toBeLessThanOrEqual(content.distanceKm);
    }
    const hampta = catalogue.trips.find((t) => t.trip.slug === 'hampta-pass-trek')!.content;
    expect(hampta.itinerary.map((d) => d.distanceKm ?? 0).reduce((a, b) => a + b, 0)).toBe(hampta.distanceKm);
  });

  it('applies the first-6,000 m rule to every peak', () => {
    for (const entry of source.peaks) {
      const record = catalogue.peaks.find((p) => p.id === entry.id)!;
      expect(record.firstSixThousanderCandidate, entry.id).toBe(isFirstSixThousanderCandidate(entry.data));
    }
    expect(catalogue.peaks.some((p) => p.firstSixThousanderCandidate)).toBe(true);
  });

  it('gives every trip a full itinerary, inclusions, gear and the questions people ask', () => {
    for (const { trip, content } of catalogue.trips) {
      expect(content.itinerary.length, trip.slug).toBe(trip.durationDays);
      expect(content.faqs.length, trip.slug).toBeGreaterThanOrEqual(5);
      const questions = content.faqs.map((f) => `${f.question} ${f.answer}`.toLowerCase()).join(' ');
      for (const topic of [
        /acclimati[sz]/,
        /permit/,
        /weather|temperature|cold/,
        /signal|network|phone/,
        /turn(s|ed)? back|descend/,
        /cancel/,
      ]) {
        expect(questions, `${trip.slug}: ${topic}`).toMatch(topic);
      }
      expect(content.inclusions.length).toBeGreaterThan(0);
      expect(content.exclusions.length).toBeGreaterThan(0);
      expect(content.gear.length).toBeGreaterThan(0);
      expect(content.sources.length).toBeGreaterThan(0);
      expect(trip.lastUpdated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });
});
