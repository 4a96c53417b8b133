/**
 * Peaks: the editors' record (`peakContent`, one YAML file a peak), the API's Peak resource
 * (`peakResource`) and the full dataset record published in `peak-data/peaks.json`.
 * Band, royalty, the first-6,000 m rule and the operator link are derived, never typed in,
 * so they cannot disagree with the facts they come from (see domain/catalogue/peaks.ts).
 */
import { z } from 'astro/zod';
import { alpineGrades, feeCategories, imfBands, isoDate, months, reference, slug } from './vocabulary.ts';

export const coordinates = z.object({
  latitude: z.number().min(26, { error: 'is south of the Indian Himalaya (expected 26 to 37)' }).max(37, { error: 'is north of the Indian Himalaya (expected 26 to 37)' }),
  longitude: z.number().min(72, { error: 'is west of the Indian Himalaya (expected 72 to 97)' }).max(97, { error: 'is east of the Indian Himalaya (expected 72 to 97)' }),
});

export const firstAscent = z.union([
  z.literal('unknown'),
  z.object({ year: z.number().int().min(1800).max(2100).optional(), party: z.string().min(2).optional() }),
]);

export const peakContent = z.object({
  name: z.string().min(2),
  alternateNames: z.array(z.string()).optional(),
  altitudeM: z.number().int({ error: 'must be a whole number of metres' }).min(3000).max(8900),
  range: z.string().min(2),
  region: z.string().min(2),
  country: z.string().min(2),
  technicalGrade: z.enum(alpineGrades),
  openPeak: z.boolean(),
  /** Trekking peaks pay the IMF's flat fee instead of the altitude band; cite the list that names the peak. */
  feeCategory: z.enum(feeCategories).default('expedition'),
  bestMonths: z.array(z.enum(months)).optional(),
  typicalDurationDays: z.number().int().min(1).max(90).optional(),
  operatorTrip: slug.optional(),
  summary: z.string().min(40),
  /** The summit's own coordinates from a cited source; left out when no source gives them. */
  coordinates: coordinates.optional(),
  firstAscent,
  references: z.array(reference).min(1, { error: 'needs at least one reference for its facts' }),
  lastVerified: isoDate,
});
export type PeakContent = z.infer<typeof peakContent>;

/** The Peak fields of the contract. */
export const peakResource = z.object({
  id: slug.describe('Stable dataset id.'),
  name: z.string().describe('Peak name.'),
  altitudeM: z.number().int().describe('Summit altitude, metres.'),
  range: z.string().describe('Mountain range.'),
  region: z.string().describe('State or region.'),
  country: z.string().describe('Country.'),
  technicalGrade: z.enum(alpineGrades).describe('Alpine French grade, from F through TD.'),
  imfBand: z.enum(imfBands).nullable().optional().describe('Royalty altitude band, or null where no band applies (IMF trekking peaks pay a flat fee instead).'),
  imfRoyaltyUsdPartyOf2: z.number().int().nullable().optional().describe('Royalty in USD for a party of two, per the published schedule: the band fee, or the flat fee of an IMF trekking peak.'),
  openPeak: z.boolean().describe("Peak is on the national mountaineering foundation's open-peak list."),
  bestMonths: z.array(z.enum(months)).optional().describe('Months the peak is normally climbed.'),
  typicalDurationDays: z.number().int().nullable().optional().describe('Typical round-trip duration in days.'),
  firstSixThousanderCandidate: z.boolean().optional().describe("Passes the operator's first-6,000 m filter."),
  operatorOperated: z.boolean().optional().describe('The operator runs a guided expedition to the peak.'),
  operatorUrl: z.url().nullable().optional().describe('Trip page when the operator runs the peak.'),
  summary: z.string().describe('One-paragraph description.'),
  lastVerified: z.iso.date().describe('Date the record was last checked against its references.'),
});
export type Peak = z.infer<typeof peakResource>;

/** One record of `peak-data/peaks.json`: the Peak plus coordinates, first ascent and references. */
export const peakRecord = peakResource.extend({
  alternateNames: z.array(z.string()).optional(),
  coordinates: coordinates.optional().describe('Approximate summit coordinates (WGS84); absent when no source gives the summit\'s own position.'),
  firstAscent,
  references: z.array(reference),
  feeCategory: z.enum(feeCategories).describe('How the IMF charges for the peak: the altitude-band fee (`expedition`) or the flat trekking-peak fee.'),
});
export type PeakRecord = z.infer<typeof peakRecord>;

/** The royalty schedule of the Indian Mountaineering Foundation, kept as data with its source. */
export const royaltySchedule = z.object({
  currency: z.literal('USD'),
  effectiveFrom: isoDate,
  partyOf2: z.object({ '<6500': z.number().int().min(0), '6501-7000': z.number().int().min(0), '7001+': z.number().int().min(0) }),
  source: reference,
  /** The flat fee of peaks on the IMF's trekking-peak list, whatever their altitude. */
  trekkingPeak: z.object({ partyOf2: z.number().int().min(0), source: reference, note: z.string().optional() }),
  note: z.string().optional(),
});
export type RoyaltySchedule = z.infer<typeof royaltySchedule>;
