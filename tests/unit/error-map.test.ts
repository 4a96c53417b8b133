/**
 * The schemas' mistakes in plain sentences (domain/schemas/error-map.ts), read through the
 * content reader as `npm run check` and the build show them: the field, what it must be, and
 * what the editor wrote.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { validated, type RawEntry } from '../../domain/catalogue/content-files.ts';
import { peakContent, royaltySchedule } from '../../domain/schemas/peak.ts';
import { siteSettings } from '../../domain/schemas/site.ts';
import { tripContent } from '../../domain/schemas/trip.ts';
import { fixtureContent } from '../helpers/content.ts';

const peak = load(readFileSync(path.join(fixtureContent, 'peaks', 'other-peak.yaml'), 'utf8')) as Record<
  string,
  unknown
>;
const trek = load(
  readFileSync(path.join(fixtureContent, 'trips', 'sample-trek.md'), 'utf8').split(/^---$/m)[1] ?? '',
) as Record<string, unknown>;

const settings = load(readFileSync(path.join(fixtureContent, 'settings', 'site.yaml'), 'utf8')) as Record<
  string,
  unknown
>;
const royalty = load(readFileSync(path.join(fixtureContent, 'settings', 'imf-royalty.yaml'), 'utf8')) as Record<
  string,
  unknown
>;

function problems(
  schema: typeof peakContent | typeof tripContent | typeof siteSettings | typeof royaltySchedule,
  data: Record<string, unknown>,
): string[] {
  const entry: RawEntry = { id: 'x', data, filePath: 'content/x.yaml', text: '' };
  const found: string[] = [];
  validated(entry, schema as never, found);
  return found.map((p) => p.replace('content/x.yaml: ', ''));
}

describe('plain-language schema problems', () => {
  it('says what a field must be and what it is', () => {
    expect(problems(peakContent, { ...peak, altitudeM: 'high' })).toEqual([
      'field "altitudeM": must be a number, not "high"',
    ]);
    expect(problems(peakContent, { ...peak, altitudeM: 6000.5 })).toEqual([
      'field "altitudeM": must be a whole number of metres (it is 6000.5)',
    ]);
    expect(problems(peakContent, { ...peak, altitudeM: 2500 })).toEqual([
      'field "altitudeM": must be at least 3000 (it is 2500)',
    ]);
    expect(problems(peakContent, { ...peak, openPeak: 'yes' })).toEqual([
      'field "openPeak": must be true or false, not "yes"',
    ]);
    expect(problems(peakContent, { ...peak, summary: 'Short.' })).toEqual([
      'field "summary": must be at least 40 characters long (it has 6)',
    ]);
    expect(problems(peakContent, { ...peak, references: [] })[0]).toBe(
      'field "references": needs at least one reference for its facts',
    );
    expect(problems(peakContent, { ...peak, references: [{ title: 'A source', url: 'example.org' }] })[0]).toBe(
      'field "references.1.url": must be a full web address starting with https://',
    );
    expect(problems(peakContent, { ...peak, operatorTrip: 'Bad Slug' })).toEqual([
      'field "operatorTrip": must use only lowercase letters a-z, digits 0-9 and hyphens (pattern ^[a-z0-9-]+$)',
    ]);
  });

  it('names a missing field as required, and the forms a field with several may take', () => {
    const { name: _name, ...nameless } = peak;
    expect(problems(peakContent, nameless)).toEqual(['field "name": is required']);
    expect(problems(peakContent, { ...peak, firstAscent: { year: 'long ago' } })).toEqual([
      'field "firstAscent": matches none of the forms it may take: must be "unknown" (it is a group of fields); or year must be a number, not "long ago"',
    ]);
  });

  it('still applies the trip-wide rules when another field is wrong', () => {
    const found = problems(tripContent, { ...trek, difficulty: 'Hard', durationDays: 3 });
    expect(found).toEqual([
      'field "difficulty": must be one of "Easy", "Moderate", "Difficult", "Very Difficult" (it is "Hard")',
      'field "durationDays": must match the itinerary, which has 2 days (it says 3)',
    ]);
  });
  it('refuses a field a record does not take, with the one it probably meant', () => {
    expect(problems(peakContent, { ...peak, altitudM: 6000 })).toEqual([
      'the file: has a field it does not take: "altitudM" (did you mean "altitudeM"?)',
    ]);
    const [unknown] = problems(peakContent, { ...peak, heightInFeet: 20000 });
    expect(unknown).toMatch(
      /^the file: has a field it does not take: "heightInFeet"; the fields it takes are name, alternateNames, altitudeM, /,
    );
    const itinerary = (trek.itinerary as Record<string, unknown>[]).map((day, index) =>
      index === 0 ? { ...day, walkinghours: 4 } : day,
    );
    expect(problems(tripContent, { ...trek, itinerary })).toEqual([
      'field "itinerary.1": has a field it does not take: "walkinghours" (did you mean "walkingHours"?)',
    ]);
    expect(problems(tripContent, { ...trek, durationDay: 2 })).toEqual([
      'the file: has a field it does not take: "durationDay" (did you mean "durationDays"?)',
    ]);
  });
  it('refuses a field the settings do not take, at every level, and in a source', () => {
    const booking = settings.booking as Record<string, unknown>;
    expect(problems(siteSettings, { ...settings, contactEmial: 'a@example.com' })).toEqual([
      'the file: has a field it does not take: "contactEmial" (did you mean "contactEmail"?)',
    ]);
    expect(problems(siteSettings, { ...settings, booking: { ...booking, depositPercnt: 20 } })).toEqual([
      'field "booking": has a field it does not take: "depositPercnt" (did you mean "depositPercent"?)',
    ]);
    const source = royalty.source as Record<string, unknown>;
    expect(problems(royaltySchedule, { ...royalty, source: { ...source, publsher: 'IMF' } })).toEqual([
      'field "source": has a field it does not take: "publsher" (did you mean "publisher"?)',
    ]);
  });
});
