/**
 * An editor's mistake is named with the file, the field and a reason a person understands, by
 * the content check (domain/catalogue/content-check.ts): the one function `npm run check` runs
 * and the build stops on (tests/build/content-errors.test.ts and content-check.test.ts show the
 * build printing the same lines). Each case breaks one file in a scratch copy of the fixture content.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkContent } from '../../domain/catalogue/content-check.ts';
import { fixtureContent } from '../helpers/content.ts';

const scratch = mkdtempSync(path.join(tmpdir(), 'content-errors-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let copies = 0;

/** The build's origin when SITE_URL is unset, as `astro build` and `npm run check` read it. */
const siteUrl = 'http://localhost:4321';

/**
 * The problems the check finds in the fixture content with `edit` made, each file named from
 * the content folder as an editor's checkout names it (content/…).
 */
function problemsWith(edit: (content: string) => void): string[] {
  const root = path.join(scratch, String((copies += 1)));
  const content = path.join(root, 'content');
  cpSync(fixtureContent, content, { recursive: true });
  edit(content);
  return checkContent(content, { siteUrl, photoFiles: true }).problems.map((problem) =>
    problem.replaceAll(`${root}/`, ''),
  );
}

function brokenFile(file: string, change: (text: string) => string): string[] {
  return problemsWith((content) => {
    const target = path.join(content, file);
    const text = readFileSync(target, 'utf8');
    const changed = change(text);
    expect(changed, `the edit of ${file} changed nothing`).not.toBe(text);
    writeFileSync(target, changed);
  });
}

const one = (problems: string[]) => {
  expect(problems).toHaveLength(1);
  return problems[0]!;
};

describe('the content check', () => {
  it('passes the fixture content as it is', () => {
    expect(problemsWith(() => undefined)).toEqual([]);
  });

  it('names the file, the field and the accepted values for a wrong enum', () => {
    const problem = one(
      brokenFile('trips/sample-trek.md', (t) => t.replace('difficulty: Moderate', 'difficulty: Hard')),
    );
    expect(problem).toContain('content/trips/sample-trek.md');
    expect(problem).toContain('difficulty');
    expect(problem).toMatch(/Easy.*Moderate.*Difficult.*Very Difficult/s);
  });

  it('names a missing required field', () => {
    expect(one(brokenFile('peaks/other-peak.yaml', (t) => t.replace(/^range: .*\n/m, '')))).toContain(
      'content/peaks/other-peak.yaml: field "range": is required',
    );
  });

  it('names a date that does not exist', () => {
    const problem = one(
      brokenFile('peaks/other-peak.yaml', (t) => t.replace('lastVerified: 2026-11-22', 'lastVerified: 30/02/2026')),
    );
    expect(problem).toContain('other-peak');
    expect(problem).toContain('lastVerified');
    expect(problem).toContain('is not a real date');
  });

  it('refuses a file name that is not a valid slug', () => {
    const problems = problemsWith((content) =>
      writeFileSync(
        path.join(content, 'trips', 'Sample_Trek.md'),
        readFileSync(path.join(content, 'trips', 'sample-trek.md')),
      ),
    );
    const problem = one(problems.filter((p) => p.includes('Sample_Trek')));
    expect(problem).toContain('^[a-z0-9-]+$');
  });

  it('names the peak file whose operatorTrip points at no trip', () => {
    expect(one(brokenFile('peaks/other-peak.yaml', (t) => `${t}operatorTrip: missing-trip\n`))).toContain(
      'other-peak.yaml: field "operatorTrip" names "missing-trip"',
    );
  });

  it('refuses a night far above the last without a published reason, naming the day and the field', () => {
    const problem = one(
      brokenFile('trips/sample-trek.md', (t) =>
        t
          .replace(
            '    endAltitudeM: 3900\n    description: Fixture day one',
            '    endAltitudeM: 4600\n    description: Fixture day one',
          )
          .replace(
            '    startAltitudeM: 3900\n    endAltitudeM: 3500',
            '    startAltitudeM: 4600\n    endAltitudeM: 3500',
          ),
      ),
    );
    expect(problem).toContain('sample-trek');
    expect(problem).toContain('itinerary.1.acclimatisationNote');
    expect(problem).toContain('raises the sleeping altitude by 1100 m');
  });

  it("refuses a walking time written in a day's description but missing from its data", () => {
    const problem = one(
      brokenFile('trips/sample-trek.md', (t) =>
        t.replace('Fixture day one description text.', 'Fixture day one takes most groups 4 to 6 hours.'),
      ),
    );
    expect(problem).toContain('itinerary.1.walkingHours');
    expect(problem).toContain('gives a walking time');
  });

  it('refuses two peaks on the same coordinates, naming the file', () => {
    const problem = one(
      brokenFile('peaks/other-peak.yaml', (t) =>
        t.replace('latitude: "30.500", longitude: "79.500"', 'latitude: "33.500", longitude: "77.500"'),
      ),
    );
    expect(problem).toContain('field "coordinates" gives the same coordinates (33.5, 77.5)');
  });

  it("refuses a peak whose only references are the operator's own pages", () => {
    const problem = one(
      brokenFile('peaks/other-peak.yaml', (t) =>
        t
          .replace('url: https://example.org/other-peak', 'url: https://theverticaltribe.com/peak-data/')
          .replace('source: https://example.org/other-peak', 'source: https://theverticaltribe.com/peak-data/'),
      ),
    );
    expect(problem).toContain('other-peak.yaml: field "references" lists only the operator\'s own pages');
  });

  it('refuses summit coordinates given to fewer than three decimals, naming the file and the field', () => {
    const problem = one(brokenFile('peaks/other-peak.yaml', (t) => t.replace('latitude: "30.500"', 'latitude: 30.52')));
    expect(problem).toContain('other-peak');
    expect(problem).toMatch(/coordinates\.latitude.*is 30\.52, given to 2 decimal\(s\); a summit needs at least 3/s);
  });

  it('refuses a distance in a summary that the coordinates contradict, naming the file and the sentence', () => {
    const problem = one(
      brokenFile('peaks/other-peak.yaml', (t) =>
        t.replace(
          'summary: A second fixture peak used only by the tests;',
          'summary: It stands about 40 km south-west of Sample Peak; a second fixture peak used only by the tests;',
        ),
      ),
    );
    expect(problem).toContain(
      'other-peak.yaml: field "summary": the sentence "It stands about 40 km south-west of Sample Peak;',
    );
    expect(problem).toMatch(/says 40 km from Sample Peak, but the coordinates put the two \d+\.\d km apart/);
  });

  it('refuses a night that climbs from below 3,000 m to far above it without a published reason', () => {
    const problem = one(
      brokenFile('trips/sample-trek.md', (t) =>
        t.replace(/startAltitudeM: 3500\n(\s+)endAltitudeM: 3900/, 'startAltitudeM: 2800\n$1endAltitudeM: 3900'),
      ),
    );
    expect(problem).toContain('itinerary.1.acclimatisationNote');
    expect(problem).toContain('raises the sleeping altitude by 900 m above 3000 m (from 2800 m to 3900 m)');
  });
});
