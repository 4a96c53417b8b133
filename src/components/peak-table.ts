/**
 * The peak dataset table without JavaScript: sort column, direction and filters come from the
 * query string, so column headers are plain links and the filter form is a GET form.
 */
import type { PeakRecord } from '../schemas/peak.ts';
import { alpineGrades } from '../schemas/vocabulary.ts';

/** Each sortable column: its heading, how a caption names it, how its two directions read, and its order. */
export const peakSortKeys = {
  name: { noun: 'name', order: ['A to Z', 'Z to A'], label: 'Peak', compare: (a: PeakRecord, b: PeakRecord) => a.name.localeCompare(b.name) },
  altitude: { noun: 'altitude', order: ['lowest first', 'highest first'], label: 'Altitude', compare: (a: PeakRecord, b: PeakRecord) => a.altitudeM - b.altitudeM },
  grade: { noun: 'grade', order: ['easiest first', 'hardest first'], label: 'Grade', compare: (a: PeakRecord, b: PeakRecord) => alpineGrades.indexOf(a.technicalGrade) - alpineGrades.indexOf(b.technicalGrade) },
  region: { noun: 'region', order: ['A to Z', 'Z to A'], label: 'Region', compare: (a: PeakRecord, b: PeakRecord) => a.region.localeCompare(b.region) },
  royalty: { noun: 'IMF royalty', order: ['lowest first', 'highest first'], label: 'IMF royalty', compare: (a: PeakRecord, b: PeakRecord) => (a.imfRoyaltyUsdPartyOf2 ?? 0) - (b.imfRoyaltyUsdPartyOf2 ?? 0) },
  days: { noun: 'typical days', order: ['shortest first', 'longest first'], label: 'Days', compare: (a: PeakRecord, b: PeakRecord) => (a.typicalDurationDays ?? 999) - (b.typicalDurationDays ?? 999) },
} as const satisfies Record<string, { noun: string; order: readonly [string, string]; label: string; compare: (a: PeakRecord, b: PeakRecord) => number }>;
export type PeakSortKey = keyof typeof peakSortKeys;

export interface PeakQuery {
  sort: PeakSortKey;
  order: 'asc' | 'desc';
  region?: string;
  openPeak?: boolean;
  firstSixThousander?: boolean;
  operated?: boolean;
  maxAltitudeM?: number;
}

export const defaultPeakQuery: PeakQuery = { sort: 'altitude', order: 'desc' };

/** Reads the query; a value we do not understand is dropped and reported, never an error page. */
export function parsePeakQuery(params: URLSearchParams, regions: readonly string[]): { query: PeakQuery; ignored: string[] } {
  const query: PeakQuery = { ...defaultPeakQuery };
  const ignored: string[] = [];
  const get = (name: string) => params.get(name)?.trim().slice(0, 60) ?? '';
  const sort = get('sort');
  if (sort) {
    if (sort in peakSortKeys) query.sort = sort as PeakSortKey;
    else ignored.push(`sort "${sort}"`);
  }
  const order = get('order');
  if (order === 'asc' || order === 'desc') query.order = order;
  else if (order) ignored.push(`order "${order}"`);
  const region = get('region');
  if (region) {
    const match = regions.find((r) => r.toLowerCase() === region.toLowerCase());
    if (match) query.region = match;
    else ignored.push(`region "${region}"`);
  }
  for (const [name, key] of [['open', 'openPeak'], ['first6000', 'firstSixThousander'], ['operated', 'operated']] as const) {
    const value = get(name);
    if (value === 'true' || value === 'yes' || value === 'on') query[key] = true;
    else if (value === 'false' || value === 'no') query[key] = false;
    else if (value) ignored.push(`${name} "${value}"`);
  }
  const max = get('maxAltitude');
  if (max) {
    if (/^\d{4}$/.test(max)) query.maxAltitudeM = Number(max);
    else ignored.push(`maximum altitude "${max}" (use whole metres, such as 6500)`);
  }
  return { query, ignored };
}

export function selectPeaks(peaks: readonly PeakRecord[], q: PeakQuery): PeakRecord[] {
  const { compare } = peakSortKeys[q.sort];
  return peaks
    .filter((p) => q.region === undefined || p.region === q.region)
    .filter((p) => q.openPeak === undefined || p.openPeak === q.openPeak)
    .filter((p) => q.firstSixThousander === undefined || (p.firstSixThousanderCandidate ?? false) === q.firstSixThousander)
    .filter((p) => q.operated === undefined || (p.operatorOperated ?? false) === q.operated)
    .filter((p) => q.maxAltitudeM === undefined || p.altitudeM <= q.maxAltitudeM)
    .sort((a, b) => (q.order === 'asc' ? 1 : -1) * compare(a, b) || a.name.localeCompare(b.name));
}

/** The query string of the page with `changes` applied; defaults are left out to keep URLs short. */
export function peakQueryString(q: PeakQuery, changes: Partial<PeakQuery> = {}): string {
  const next = { ...q, ...changes };
  const params = new URLSearchParams();
  if (next.sort !== defaultPeakQuery.sort || next.order !== defaultPeakQuery.order) {
    params.set('sort', next.sort);
    params.set('order', next.order);
  }
  if (next.region) params.set('region', next.region);
  if (next.openPeak !== undefined) params.set('open', String(next.openPeak));
  if (next.firstSixThousander !== undefined) params.set('first6000', String(next.firstSixThousander));
  if (next.operated !== undefined) params.set('operated', String(next.operated));
  if (next.maxAltitudeM !== undefined) params.set('maxAltitude', String(next.maxAltitudeM));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The link a column header points at: ascending on a new column, or the other direction on the current one. */
export function sortLink(q: PeakQuery, key: PeakSortKey): string {
  const order = q.sort === key ? (q.order === 'asc' ? 'desc' : 'asc') : key === 'name' || key === 'region' ? 'asc' : 'desc';
  return peakQueryString(q, { sort: key, order });
}

export function isFiltered(q: PeakQuery): boolean {
  return q.region !== undefined || q.openPeak !== undefined || q.firstSixThousander !== undefined || q.operated !== undefined || q.maxAltitudeM !== undefined;
}

/** "3 of 23 peaks, sorted by altitude, highest first" */
export function describePeakQuery(q: PeakQuery, shown: number, total: number): string {
  const key = peakSortKeys[q.sort];
  return `${shown} of ${total} peaks, sorted by ${key.noun}, ${key.order[q.order === 'asc' ? 0 : 1]}`;
}
