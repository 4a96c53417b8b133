/**
 * Facts the sources disagree on, in words: which fact, and every account with who gives it. One
 * place, so the dataset page, its Markdown twin and the trip pages say it the same way, for a
 * peak's facts and a trip's own (the highest point of a trek).
 */
import type { PeakRecord } from '../schemas/peak.ts';
import type { TripContent } from '../schemas/trip.ts';
import { publisherOf, type Reference } from './references.ts';

type PeakContested = NonNullable<PeakRecord['contested']>[number];
type TripFact = NonNullable<TripContent['contested']>[number]['fact'];

/** One contested fact with every account's source as a reference. */
export interface Contested {
  fact: PeakContested['fact'] | TripFact;
  accounts: { says: string; source: Reference }[];
}

export const contestedFactLabel: Record<Contested['fact'], string> = {
  altitudeM: 'Altitude',
  firstAscent: 'First ascent',
  coordinates: 'Summit position',
  summitAltitudeM: 'Highest point',
};

/** A trip's contested facts with each account's source looked up among the trip's sources. */
export function tripContested(content: Pick<TripContent, 'contested' | 'sources'>): Contested[] {
  return (content.contested ?? []).map(({ fact, accounts }) => ({
    fact,
    accounts: accounts.map((a) => ({
      says: a.says,
      source: content.sources.find((s) => s.url === a.source) ?? { title: a.source, url: a.source },
    })),
  }));
}

/** "American Alpine Journal, 1960: Gibson and two Sherpas; Wikipedia: Gibson's school party" */
function accountsText(contested: Contested): string {
  return contested.accounts.map((a) => `${publisherOf(a.source)}: ${a.says}`).join('; ');
}

/** One line per contested fact: "First ascent: the sources differ. …". */
export function contestedLines(record: { contested?: readonly Contested[] | undefined }): string[] {
  return (record.contested ?? []).map((c) => `${contestedFactLabel[c.fact]}: the sources differ. ${accountsText(c)}.`);
}
