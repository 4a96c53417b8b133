/**
 * Distances and directions written in peak summaries ("about 15 km west-south-west of Nanda
 * Devi"), checked against the coordinates of both ends, so prose and map cannot drift apart.
 * A distance must name where it is measured from, and both ends must have coordinates (a peak of
 * the dataset or one of the record's landmarks); a direction alone is checked when they do.
 */
import type { PeakContent } from '../schemas/peak.ts';
import { distanceKm, summitPosition, type Summit } from '../summits.ts';

type Point = Summit['coordinates'];

/** How far a written distance may be from the one the coordinates give. */
const distanceTolerance = 0.15;
/** How far a written direction may be from the computed bearing: one compass point either side. */
const bearingToleranceDeg = 22.5;

const compass = [
  'north',
  'north-north-east',
  'north-east',
  'east-north-east',
  'east',
  'east-south-east',
  'south-east',
  'south-south-east',
  'south',
  'south-south-west',
  'south-west',
  'west-south-west',
  'west',
  'west-north-west',
  'north-west',
  'north-north-west',
] as const;

const bearingPattern = [...compass].sort((a, b) => b.length - a.length).join('|');

const units: Record<string, number> = {
  a: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
};
const fractions: Record<string, number> = { 'a half': 0.5, 'a quarter': 0.25, 'three quarters': 0.75 };
const numberWord = `(?:\\d+(?:\\.\\d+)?|(?:${Object.keys(units).join('|')})(?:\\s+and\\s+(?:${Object.keys(fractions).join('|')}))?)`;

/** "2.5", "15", "two and a half" → a number. */
export function parseDistance(text: string): number {
  const t = text.trim().toLowerCase();
  if (/^\d/.test(t)) return Number(t);
  const [whole, fraction] = t.split(/\s+and\s+/);
  return (units[whole!] ?? NaN) + (fraction ? (fractions[fraction] ?? NaN) : 0);
}

const placeName = "(?:the\\s+)?([A-Z][\\w'’-]*(?:\\s+(?:[A-Z][\\w'’-]*|I{1,3}))*)";
const distancePhrase = new RegExp(
  `\\b(${numberWord})\\s*(?:km|kilomet(?:re|er)s?)\\b(?!\\s+(?:long|wide|high|deep|across))(?:\\s+(?:to the\\s+)?(${bearingPattern}))?(?:\\s+(?:of|from)\\s+${placeName})?`,
  'gi',
);
const bearingPhrase = new RegExp(`\\b(${bearingPattern})\\s+of\\s+${placeName}`, 'g');

/** Initial great-circle bearing from a to b, degrees clockwise from north. */
export function bearingDeg(a: Point, b: Point): number {
  const r = Math.PI / 180;
  const y = Math.sin((b.longitude - a.longitude) * r) * Math.cos(b.latitude * r);
  const x =
    Math.cos(a.latitude * r) * Math.sin(b.latitude * r) -
    Math.sin(a.latitude * r) * Math.cos(b.latitude * r) * Math.cos((b.longitude - a.longitude) * r);
  return (Math.atan2(y, x) / r + 360) % 360;
}

function compassName(degrees: number): string {
  return compass[Math.round(degrees / 22.5) % 16]!;
}

function angleBetween(a: number, b: number): number {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
}

export interface PeakEntry {
  id: string;
  data: PeakContent;
  filePath?: string | undefined;
}

/** Known points by every name: dataset peaks (with their other names) and the record's landmarks. */
function gazetteer(peaks: readonly PeakEntry[], own: PeakEntry): Map<string, Point | 'unknown'> {
  const names = new Map<string, Point | 'unknown'>();
  for (const p of peaks) {
    const at = summitPosition(p.data.coordinates) ?? 'unknown';
    for (const name of [p.data.name, ...(p.data.alternateNames ?? [])]) names.set(name.toLowerCase(), at);
  }
  for (const l of own.data.landmarks ?? []) names.set(l.name.toLowerCase(), l.coordinates);
  return names;
}

/** The longest leading run of words that names a known point. */
function resolve(
  words: string,
  names: Map<string, Point | 'unknown'>,
): { name: string; at: Point | 'unknown' } | undefined {
  const parts = words.split(/\s+/);
  for (let n = parts.length; n > 0; n -= 1) {
    const name = parts.slice(0, n).join(' ');
    const at = names.get(name.toLowerCase());
    if (at) return { name, at };
  }
  return undefined;
}

const sentencesOf = (text: string) => text.replace(/\s+/g, ' ').split(/(?<=[.;!?])\s+/);
const km = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} km`;

/** Every sentence of every summary whose distance or direction the coordinates contradict or cannot check. */
export function summaryGeographyProblems(peaks: readonly PeakEntry[]): string[] {
  const problems: string[] = [];
  for (const entry of peaks) {
    const file = entry.filePath ?? `content/peaks/${entry.id}.yaml`;
    const names = gazetteer(peaks, entry);
    const here = summitPosition(entry.data.coordinates);
    const fail = (sentence: string, why: string) =>
      problems.push(`${file}: field "summary": the sentence "${sentence}" ${why}`);
    for (const sentence of sentencesOf(entry.data.summary)) {
      const spans: [number, number][] = [];
      for (const m of sentence.matchAll(distancePhrase)) {
        const [whole, amount, bearing, place] = m;
        spans.push([m.index, m.index + whole.length]);
        const written = parseDistance(amount!);
        const target = place ? resolve(place, names) : undefined;
        if (!place || !target) {
          fail(
            sentence,
            `gives a distance (${amount} km) without a place the build knows to measure it from; write it as "<distance> <direction> of <a peak in the dataset, or a landmark of this record>", or leave the figure out`,
          );
          continue;
        }
        if (target.at === 'unknown' || !here) {
          fail(
            sentence,
            `gives a distance to ${target.name}, but ${!here ? `this peak` : target.name} has no coordinates, so it cannot be checked; leave the figure out until a source gives them`,
          );
          continue;
        }
        const actual = distanceKm(target.at, here);
        const heading = bearingDeg(target.at, here);
        if (Math.abs(written - actual) / actual > distanceTolerance) {
          fail(
            sentence,
            `says ${written} km from ${target.name}, but the coordinates put the two ${km(actual)} apart (${compassName(heading)}); a written distance must be within ${distanceTolerance * 100}% of it`,
          );
        } else if (
          bearing &&
          angleBetween(compass.indexOf(bearing.toLowerCase() as (typeof compass)[number]) * 22.5, heading) >
            bearingToleranceDeg
        ) {
          fail(
            sentence,
            `says ${bearing} of ${target.name}, but the coordinates put it ${compassName(heading)} (bearing ${Math.round(heading)}°)`,
          );
        }
      }
      for (const m of sentence.matchAll(bearingPhrase)) {
        const [, bearing, place] = m;
        if (spans.some(([start, end]) => m.index >= start && m.index < end)) continue;
        const target = resolve(place!, names);
        if (!target || target.at === 'unknown' || !here) continue;
        const heading = bearingDeg(target.at, here);
        if (
          angleBetween(compass.indexOf(bearing!.toLowerCase() as (typeof compass)[number]) * 22.5, heading) >
          bearingToleranceDeg
        ) {
          fail(
            sentence,
            `says ${bearing} of ${target.name}, but the coordinates put it ${compassName(heading)} (bearing ${Math.round(heading)}°)`,
          );
        }
      }
    }
  }
  return problems;
}
