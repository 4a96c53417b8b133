/**
 * The rules that turn an editor's peak record into the published Peak: royalty band and fee
 * (from the fee category and the schedule), the first-6,000 m filter and the link to our
 * expedition. One place, so the API, the dataset file and the pages can never disagree.
 */
import type { Peak, PeakContent, PeakRecord, RoyaltySchedule } from '../schemas/peak.ts';
// The constants from the vocabulary, not the peak schema: the functions that publish peaks build no schemas.
import { externalIdFields, type imfBands } from '../schemas/vocabulary.ts';

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

/**
 * The IMF fee for a party of two: the altitude band's fee, or the flat fee of the IMF's
 * trekking-peak list, which has no band.
 */
function imfFeeFor(
  peak: Pick<PeakContent, 'altitudeM' | 'feeCategory'>,
  royalty: RoyaltySchedule,
): { band: ImfBand | null; usdPartyOf2: number } {
  if (peak.feeCategory === 'trekking-peak') return { band: null, usdPartyOf2: royalty.trekkingPeak.partyOf2 };
  const band = imfBandFor(peak.altitudeM);
  return { band, usdPartyOf2: royalty.partyOf2[band] };
}

/** The reference a record cites by address (the schema has checked it is there). */
function cited(peak: PeakContent, url: string): PeakContent['references'][number] {
  return peak.references.find((r) => r.url === url) ?? { title: url, url };
}

export function toPeakRecord(
  id: string,
  peak: PeakContent,
  royalty: RoyaltySchedule,
  operatorUrl: string | null,
): PeakRecord {
  const fee = imfFeeFor(peak, royalty);
  const contested = peak.contested?.map(({ fact, accounts }) => ({
    fact,
    accounts: accounts.map((a) => ({ says: a.says, source: cited(peak, a.source) })),
  }));
  const resource: Peak = {
    id,
    name: peak.name,
    altitudeM: peak.altitudeM,
    range: peak.range,
    region: peak.region,
    country: peak.country,
    technicalGrade: peak.technicalGrade,
    imfBand: fee.band,
    imfRoyaltyUsdPartyOf2: fee.usdPartyOf2,
    openPeak: peak.openPeak,
    ...(peak.bestMonths ? { bestMonths: peak.bestMonths } : {}),
    typicalDurationDays: peak.typicalDurationDays ?? null,
    firstSixThousanderCandidate: isFirstSixThousanderCandidate(peak),
    operatorOperated: operatorUrl !== null,
    operatorUrl,
    summary: peak.summary,
    lastVerified: peak.lastVerified,
    ...(contested ? { contested } : {}),
  };
  const position = peak.coordinates;
  const ids = Object.fromEntries(
    externalIdFields.flatMap((field) => {
      const given = peak[field];
      return given
        ? [
            [field, given.id],
            [`${field}Source`, cited(peak, given.source)],
          ]
        : [];
    }),
  ) as Pick<
    PeakRecord,
    'wikidataId' | 'wikidataIdSource' | 'osmNodeId' | 'osmNodeIdSource' | 'geonamesId' | 'geonamesIdSource'
  >;
  return {
    ...resource,
    ...(peak.alternateNames ? { alternateNames: peak.alternateNames } : {}),
    ...('unknown' in position
      ? { coordinatesUnknownReason: position.unknown }
      : {
          coordinates: { latitude: position.latitude, longitude: position.longitude },
          coordinatesSource: cited(peak, position.source),
        }),
    ...ids,
    firstAscent: peak.firstAscent,
    references: peak.references,
    feeCategory: peak.feeCategory,
  };
}

/** The Peak resource of the API: the record without the dataset-only fields. */
export function toPeakResource(record: PeakRecord): Peak {
  const {
    alternateNames: _a,
    coordinates: _c,
    coordinatesSource: _cs,
    firstAscent: _f,
    references: _r,
    feeCategory: _fee,
    ...rest
  } = record;
  const {
    wikidataId: _w,
    wikidataIdSource: _ws,
    osmNodeId: _o,
    osmNodeIdSource: _os,
    geonamesId: _g,
    geonamesIdSource: _gs,
    ...peak
  } = rest;
  return peak;
}
