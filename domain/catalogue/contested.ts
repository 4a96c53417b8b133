/**
 * Facts the sources disagree on, in words: which fact, and every account with who gives it. One
 * place, so the dataset page, its Markdown twin and the trip pages say it the same way.
 */
import type { PeakRecord } from '../schemas/peak.ts';
import { publisherOf } from './references.ts';

type Contested = NonNullable<PeakRecord['contested']>[number];

export const contestedFactLabel: Record<Contested['fact'], string> = {
  altitudeM: 'Altitude',
  firstAscent: 'First ascent',
  coordinates: 'Summit position',
};

/** "American Alpine Journal, 1960: Gibson and two Sherpas; Wikipedia: Gibson's school party" */
export function accountsText(contested: Contested): string {
  return contested.accounts.map((a) => `${publisherOf(a.source)}: ${a.says}`).join('; ');
}

/** One line per contested fact: "First ascent: the sources differ. …". */
export function contestedLines(peak: Pick<PeakRecord, 'contested'>): string[] {
  return (peak.contested ?? []).map((c) => `${contestedFactLabel[c.fact]}: the sources differ. ${accountsText(c)}.`);
}
