/**
 * The rules that turn an editor's peak record into the published Peak: royalty band and fee,
 * the first-6,000 m filter and the link to our expedition. One place, so the API, the dataset
 * file and the pages can never disagree.
 */
import type { Peak, PeakContent, PeakRecord, RoyaltySchedule } from '../../src/schemas/peak.ts';
import type { imfBands } from '../../src/schemas/vocabulary.ts';

type ImfBand = (typeof imfBands)[number];

/** The IMF's altitude bands: up to 6,500 m, 6,501 to 7,000 m, above 7,000 m. */
export function imfBandFor(altitudeM: number): ImfBand {
  if (altitudeM <= 6500) return '<6500';
  if (altitudeM <= 7000) return '6501-7000';
  return '7001+';
}

/** Grades a fit first-timer with a basic course can climb with guides: up to PD+. */
export const firstSixThousanderGrades = new Set(['F', 'F+', 'PD-', 'PD', 'PD+']);
/** Days a working person can usually take off in one go, travel included. */
export const normalLeaveWindowDays = 15;

/**
 * The first-6,000 m filter: open to climb, at least 6,000 m, graded PD+ or easier, and
 * climbable within a normal leave window. Stated in docs/editing-content.md.
 */
export function isFirstSixThousanderCandidate(peak: PeakContent): boolean {
  return (
    peak.openPeak &&
    peak.altitudeM >= 6000 &&
    firstSixThousanderGrades.has(peak.technicalGrade) &&
    peak.typicalDurationDays !== undefined &&
    peak.typicalDurationDays <= normalLeaveWindowDays
  );
}

export function toPeakRecord(id: string, peak: PeakContent, royalty: RoyaltySchedule, operatorUrl: string | null): PeakRecord {
  const band = peak.royaltyExempt ? null : imfBandFor(peak.altitudeM);
  const resource: Peak = {
    id,
    name: peak.name,
    altitudeM: peak.altitudeM,
    range: peak.range,
    region: peak.region,
    country: peak.country,
    technicalGrade: peak.technicalGrade,
    imfBand: band,
    imfRoyaltyUsdPartyOf2: band ? royalty.partyOf2[band] : null,
    openPeak: peak.openPeak,
    ...(peak.bestMonths ? { bestMonths: peak.bestMonths } : {}),
    typicalDurationDays: peak.typicalDurationDays ?? null,
    firstSixThousanderCandidate: isFirstSixThousanderCandidate(peak),
    operatorOperated: operatorUrl !== null,
    operatorUrl,
    summary: peak.summary,
    lastVerified: peak.lastVerified,
  };
  return {
    ...resource,
    ...(peak.alternateNames ? { alternateNames: peak.alternateNames } : {}),
    coordinates: peak.coordinates,
    firstAscent: peak.firstAscent,
    references: peak.references,
    ...(peak.royaltyNote ? { royaltyNote: peak.royaltyNote } : {}),
  };
}

/** The Peak resource of the API: the record without the dataset-only fields. */
export function toPeakResource(record: PeakRecord): Peak {
  const { alternateNames: _a, coordinates: _c, firstAscent: _f, references: _r, royaltyNote: _n, ...peak } = record;
  return peak;
}
