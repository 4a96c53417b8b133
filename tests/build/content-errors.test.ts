/**
 * An editor's mistake must stop `astro build` with the file, the field and a reason a person
 * understands. Each case breaks one fixture file in a scratch copy of the project.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProject, copyProject, type ProjectCopy } from '../helpers/project.ts';
import { fixtureContent } from '../helpers/content.ts';

const copies: ProjectCopy[] = [];
afterAll(() => copies.forEach((c) => c.remove()));

function brokenBuild(file: string, edit: (text: string) => string) {
  const copy = copyProject({ content: fixtureContent });
  copies.push(copy);
  const target = path.join(copy.dir, 'content', file);
  writeFileSync(target, edit(readFileSync(target, 'utf8')));
  return buildProject(copy.dir);
}

describe('content validation at build time', () => {
  it('names the file, the field and the accepted values for a wrong enum', () => {
    const result = brokenBuild('trips/sample-trek.md', (t) => t.replace('difficulty: Moderate', 'difficulty: Hard'));
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('sample-trek');
    expect(result.output).toContain('difficulty');
    expect(result.output).toMatch(/Easy.*Moderate.*Difficult.*Very Difficult/s);
  });

  it('names a missing required field', () => {
    const result = brokenBuild('peaks/other-peak.yaml', (t) => t.replace(/^range: .*\n/m, ''));
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('content/peaks/other-peak.yaml: field "range": is required');
  });

  it('names a date that does not exist', () => {
    const result = brokenBuild('peaks/other-peak.yaml', (t) => t.replace('lastVerified: 2026-11-22', 'lastVerified: 30/02/2026'));
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('other-peak');
    expect(result.output).toContain('lastVerified');
    expect(result.output).toContain('is not a real date');
  });

  it('refuses a file name that is not a valid slug', () => {
    const copy = copyProject({ content: fixtureContent });
    copies.push(copy);
    const from = path.join(copy.dir, 'content', 'trips', 'sample-trek.md');
    writeFileSync(path.join(copy.dir, 'content', 'trips', 'Sample_Trek.md'), readFileSync(from));
    const result = buildProject(copy.dir);
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('Sample_Trek');
    expect(result.output).toContain('^[a-z0-9-]+$');
  });

  it('names the peak file whose operatorTrip points at no trip', () => {
    const result = brokenBuild('peaks/other-peak.yaml', (t) => `${t}operatorTrip: missing-trip\n`);
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('other-peak.yaml: field "operatorTrip" names "missing-trip"');
  });

  it('refuses a night far above the last without a published reason, naming the day and the field', () => {
    const result = brokenBuild('trips/sample-trek.md', (t) => t.replace('    endAltitudeM: 3900\n    description: Fixture day one', '    endAltitudeM: 4600\n    description: Fixture day one').replace('    startAltitudeM: 3900\n    endAltitudeM: 3500', '    startAltitudeM: 4600\n    endAltitudeM: 3500'));
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('sample-trek');
    expect(result.output).toContain('itinerary.1.acclimatisationNote');
    expect(result.output).toContain('raises the sleeping altitude by 1100 m');
  });

  it('refuses a walking time written in a day\'s description but missing from its data', () => {
    const result = brokenBuild('trips/sample-trek.md', (t) => t.replace('Fixture day one description text.', 'Fixture day one takes most groups 4 to 6 hours.'));
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('itinerary.1.walkingHours');
    expect(result.output).toContain('gives a walking time');
  });

  it('refuses two peaks on the same coordinates, naming the file', () => {
    const result = brokenBuild('peaks/other-peak.yaml', (t) => t.replace('latitude: "30.500", longitude: "79.500"', 'latitude: "33.500", longitude: "77.500"'));
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('field "coordinates" gives the same coordinates (33.5, 77.5)');
  });

  it("refuses a peak whose only references are the operator's own pages", () => {
    const result = brokenBuild('peaks/other-peak.yaml', (t) => t.replace('url: https://example.org/other-peak', 'url: https://theverticaltribe.com/peak-data/').replace('source: https://example.org/other-peak', 'source: https://theverticaltribe.com/peak-data/'));
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('other-peak.yaml: field "references" lists only the operator\'s own pages');
  });

  it('refuses summit coordinates given to fewer than three decimals, naming the file and the field', () => {
    const result = brokenBuild('peaks/other-peak.yaml', (t) => t.replace('latitude: "30.500"', 'latitude: 30.52'));
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('other-peak');
    expect(result.output).toMatch(/coordinates\.latitude.*is 30\.52, given to 2 decimal\(s\); a summit needs at least 3/s);
  });

  it('refuses a distance in a summary that the coordinates contradict, naming the file and the sentence', () => {
    const result = brokenBuild('peaks/other-peak.yaml', (t) => t.replace('summary: A second fixture peak used only by the tests;', 'summary: It stands about 40 km south-west of Sample Peak; a second fixture peak used only by the tests;'));
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('other-peak.yaml: field "summary": the sentence "It stands about 40 km south-west of Sample Peak;');
    expect(result.output).toMatch(/says 40 km from Sample Peak, but the coordinates put the two \d+\.\d km apart/);
  });

  it('refuses a night that climbs from below 3,000 m to far above it without a published reason', () => {
    const result = brokenBuild('trips/sample-trek.md', (t) => t.replace(/startAltitudeM: 3500\n(\s+)endAltitudeM: 3900/, 'startAltitudeM: 2800\n$1endAltitudeM: 3900'));
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('itinerary.1.acclimatisationNote');
    expect(result.output).toContain('raises the sleeping altitude by 900 m above 3000 m (from 2800 m to 3900 m)');
  });

  it('stops at the social cards, naming the trip whose words would not fit its card', () => {
    const result = brokenBuild('trips/sample-trek.md', (t) => t.replace('name: Fixture Trek', 'name: Fixture Trek Across Every High Pass and Glacier Between the Two Longest Valleys of the Range'));
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('Social card of sample-trek:');
    expect(result.output).toMatch(/the title "Fixture Trek Across .*" takes 3 lines, at most 2 fit/);
  });
});
