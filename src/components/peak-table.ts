/**
 * The peak dataset table without JavaScript: each sort order is a page built at deploy time
 * (`/peak-data` by altitude, highest first; `/peak-data/by/<column>-<asc|desc>` for the others),
 * so the column headers are plain links; the filters are radio buttons the page's CSS reads
 * (`peakFilterStyles`), so they act at once without a script or a reload.
 */
import type { PeakRecord } from '../../domain/schemas/peak.ts';
import { alpineGrades } from '../../domain/schemas/vocabulary.ts';
import { filterToken } from './trip-finder.ts';

/** Each sortable column: its heading, how a caption names it, how its two directions read, and its order. */
export const peakSortKeys = {
  name: {
    noun: 'name',
    order: ['A to Z', 'Z to A'],
    label: 'Peak',
    compare: (a: PeakRecord, b: PeakRecord) => a.name.localeCompare(b.name),
  },
  altitude: {
    noun: 'altitude',
    order: ['lowest first', 'highest first'],
    label: 'Altitude',
    compare: (a: PeakRecord, b: PeakRecord) => a.altitudeM - b.altitudeM,
  },
  grade: {
    noun: 'grade',
    order: ['easiest first', 'hardest first'],
    label: 'Grade',
    compare: (a: PeakRecord, b: PeakRecord) =>
      alpineGrades.indexOf(a.technicalGrade) - alpineGrades.indexOf(b.technicalGrade),
  },
  region: {
    noun: 'region',
    order: ['A to Z', 'Z to A'],
    label: 'Region',
    compare: (a: PeakRecord, b: PeakRecord) => a.region.localeCompare(b.region),
  },
  royalty: {
    noun: 'IMF royalty',
    order: ['lowest first', 'highest first'],
    label: 'IMF royalty',
    compare: (a: PeakRecord, b: PeakRecord) => (a.imfRoyaltyUsdPartyOf2 ?? 0) - (b.imfRoyaltyUsdPartyOf2 ?? 0),
  },
  days: {
    noun: 'typical days',
    order: ['shortest first', 'longest first'],
    label: 'Days',
    compare: (a: PeakRecord, b: PeakRecord) => (a.typicalDurationDays ?? 999) - (b.typicalDurationDays ?? 999),
  },
} as const satisfies Record<
  string,
  { noun: string; order: readonly [string, string]; label: string; compare: (a: PeakRecord, b: PeakRecord) => number }
>;
export type PeakSortKey = keyof typeof peakSortKeys;

export interface PeakSort {
  sort: PeakSortKey;
  order: 'asc' | 'desc';
}

export const defaultPeakSort: PeakSort = { sort: 'altitude', order: 'desc' };

export function sortPeaks(peaks: readonly PeakRecord[], q: PeakSort): PeakRecord[] {
  const { compare } = peakSortKeys[q.sort];
  return [...peaks].sort((a, b) => (q.order === 'asc' ? 1 : -1) * compare(a, b) || a.name.localeCompare(b.name));
}

/** The page of one sort order: `/peak-data` for the default, `/peak-data/by/<column>-<order>` for the others. */
export function sortPagePath(q: PeakSort): string {
  return q.sort === defaultPeakSort.sort && q.order === defaultPeakSort.order
    ? '/peak-data'
    : `/peak-data/by/${q.sort}-${q.order}`;
}

/** Every sort order but the default, one built page each. */
export function otherSortOrders(): PeakSort[] {
  return (Object.keys(peakSortKeys) as PeakSortKey[])
    .flatMap((sort) => (['asc', 'desc'] as const).map((order) => ({ sort, order })))
    .filter((q) => sortPagePath(q) !== '/peak-data');
}

/** Where a column header leads: ascending on a new column (descending for numbers), or the other direction on the current one. */
export function sortLink(q: PeakSort, key: PeakSortKey): string {
  const order =
    q.sort === key ? (q.order === 'asc' ? 'desc' : 'asc') : key === 'name' || key === 'region' ? 'asc' : 'desc';
  return sortPagePath({ sort: key, order });
}

/** "23 peaks, sorted by altitude, highest first" */
export function describePeakSort(q: PeakSort, total: number): string {
  const key = peakSortKeys[q.sort];
  return `${total} peaks, sorted by ${key.noun}, ${key.order[q.order === 'asc' ? 0 : 1]}`;
}

/** The altitude limits offered as a filter. */
export const altitudeLimits = [6000, 6500, 7000] as const;

/** The tokens a table row carries for each filter. */
export function peakRowFilters(peak: PeakRecord): Record<'region' | 'open' | 'first6000' | 'operated' | 'max', string> {
  return {
    region: filterToken(peak.region),
    open: peak.openPeak ? 'yes' : 'no',
    first6000: peak.firstSixThousanderCandidate ? 'yes' : 'no',
    operated: peak.operatorOperated ? 'yes' : 'no',
    max: altitudeLimits.filter((limit) => peak.altitudeM <= limit).join(' '),
  };
}

/** The CSS of the filters (served as /styles/peak-filter.css): one rule per value. */
export function peakFilterStyles(regions: readonly string[]): string {
  const values: Record<string, readonly string[]> = {
    region: regions.map(filterToken),
    open: ['yes', 'no'],
    first6000: ['yes'],
    operated: ['yes'],
    max: altitudeLimits.map(String),
  };
  const rules = Object.entries(values).flatMap(([name, tokens]) =>
    tokens.map(
      (value) =>
        `.peak-index:has(input[name="${name}"][value="${value}"]:checked) tbody tr:not([data-${name}~="${value}"]) { display: none; }`,
    ),
  );
  return `/* Generated from src/components/peak-table.ts */\n${rules.join('\n')}\n`;
}
