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
import { fixtureContent, withNextFixtureRelease } from '../helpers/content.ts';

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

describe('positions, node ids and text the peak dataset publishes', () => {
  it('refuses a position given as a bare unknown, and accepts one that says why', () => {
    const bare = (t: string) => t.replace(/^coordinates: .*$/m, 'coordinates: unknown');
    expect(one(brokenFile('peaks/other-peak.yaml', bare))).toMatch(
      /^content\/peaks\/other-peak\.yaml: field "coordinates": is "unknown" without saying why; write coordinates: \{ unknown: "…" \}/,
    );
    const said = (t: string) =>
      t.replace(/^coordinates: .*$/m, 'coordinates: { unknown: "No source we could read gives the summit position." }');
    expect(brokenFile('peaks/other-peak.yaml', said)).toEqual([]);
  });

  const withNode =
    (position: string, extra = '') =>
    (t: string) =>
      t.replace(
        /^firstAscent:/m,
        `osmNodeId:\n  id: 123456789\n  source: https://example.org/other-peak\n  position: ${position}\n${extra}firstAscent:`,
      );

  it("measures an OpenStreetMap node against the record's position: within 500 m, or the difference explained", () => {
    // 30.500 N, 79.500 E is the record's summit; 0.002° of latitude is about 220 m, 0.006° about 670 m.
    expect(brokenFile('peaks/other-peak.yaml', withNode('{ latitude: 30.502, longitude: 79.5 }'))).toEqual([]);
    expect(one(brokenFile('peaks/other-peak.yaml', withNode('{ latitude: 30.506, longitude: 79.5 }')))).toBe(
      'content/peaks/other-peak.yaml: field "osmNodeId.position": node 123456789 stands 667 m from the record\'s coordinates (30.5, 79.5), more than 500 m: it may be another top or the massif\'s label; check it, or say in osmNodeId.note why the difference is right',
    );
    expect(
      brokenFile(
        'peaks/other-peak.yaml',
        withNode(
          '{ latitude: 30.506, longitude: 79.5 }',
          '  note: "The node marks the summit; the record gives the survey point on the same top."\n',
        ),
      ),
    ).toEqual([]);
  });

  it('refuses a node id of a record whose position is unknown unless a note says why it is the summit, and a node without its position', () => {
    const unknownWithNode = (t: string) =>
      withNode('{ latitude: 30.5, longitude: 79.5 }')(
        t.replace(
          /^coordinates: .*$/m,
          'coordinates: { unknown: "No source we could read gives the summit position." }',
        ),
      );
    expect(one(brokenFile('peaks/other-peak.yaml', unknownWithNode))).toContain(
      'field "osmNodeId.position": node 123456789 cannot be measured against the record\'s position, which is unknown',
    );
    const noPosition = (t: string) =>
      t.replace(/^firstAscent:/m, 'osmNodeId: { id: 123456789, source: https://example.org/other-peak }\nfirstAscent:');
    expect(one(brokenFile('peaks/other-peak.yaml', noPosition))).toContain('field "osmNodeId.position": is required');
  });

  it('refuses text a spreadsheet would run as a formula in a field peaks.csv writes, and leaves a negative number alone', () => {
    const problem = one(
      brokenFile('peaks/other-peak.yaml', (t) =>
        t.replace(
          'firstAscent: { year: 1950, party: Fixture party }',
          'firstAscent: { year: 1950, party: "=HYPERLINK(\\"https://evil.example\\",\\"x\\")" }',
        ),
      ),
    );
    expect(problem).toBe(
      'content/peaks/other-peak.yaml: field "firstAscent.party": starts with "=", which a spreadsheet opening peaks.csv would run as a formula; begin with a word (a cell may not start with =, +, -, @, a tab or a carriage return)',
    );
    const summary = (t: string) =>
      t.replace(
        /^summary: .*$/m,
        'summary: "@SUM(1,2): a second fixture peak used only by the tests; it describes no real mountain."',
      );
    expect(one(brokenFile('peaks/other-peak.yaml', summary))).toContain('field "summary": starts with "@"');
    expect(
      one(brokenFile('peaks/other-peak.yaml', (t) => t.replace('range: Sample Range', 'range: "-Sample Range"'))),
    ).toContain('field "range": starts with "-"');
  });
});

describe("the dataset's releases and the ids they published", () => {
  const site = 'settings/site.yaml';

  it('needs the files of every earlier release kept under content/peak-data/<version>/', () => {
    const problems = problemsWith((content) => rmSync(path.join(content, 'peak-data'), { recursive: true }));
    expect(problems).toEqual([
      'content/settings/site.yaml: field "dataset.changelog.1": release 2.0.0 has no files kept in content/peak-data/2.0.0/; every release stays downloadable at /peak-data/2.0.0/, so keep its files there (npm run peak-data -- archive, while the content is still that release; see docs/editing-content.md)',
    ]);
  });

  it('refuses kept files of a release the changelog does not list, or of the current version, and a peaks.json of another version', () => {
    const problems = problemsWith((content) => {
      cpSync(path.join(content, 'peak-data', '2.0.0'), path.join(content, 'peak-data', '1.9.0'), { recursive: true });
      cpSync(path.join(content, 'peak-data', '2.0.0'), path.join(content, 'peak-data', '2.1.0'), { recursive: true });
    });
    expect(problems).toEqual([
      'content/peak-data/1.9.0/peaks.json: says version "2.0.0", but its folder is 1.9.0; keep each release\'s files in the folder of its version',
      'content/peak-data/2.1.0/peaks.json: says version "2.0.0", but its folder is 2.1.0; keep each release\'s files in the folder of its version',
      'content/peak-data/1.9.0: keeps release 1.9.0, which the changelog in content/settings/site.yaml does not list',
      'content/peak-data/2.1.0: keeps files of 2.1.0, the current version, whose files every build writes from the records; raise the version (a new release at the top of the changelog) or remove the folder',
    ]);
  });

  it('refuses an id an earlier release published that no record and no removed id accounts for', () => {
    const problems = brokenFile(site, (t) => t.replace(/ {2}removedIds:\n[\s\S]*? {2}changelog:/, '  changelog:'));
    expect(problems).toEqual([
      expect.stringMatching(
        /^content\/settings\/site\.yaml: field "dataset\.removedIds": "renamed-peak" was published in 2\.0\.0 \(content\/peak-data\/2\.0\.0\/peaks\.json\) but no record has it now; ids stay/,
      ),
      expect.stringMatching(/"retired-peak" was published in 2\.0\.0/),
    ]);
  });

  it('holds each removed id to the kept files and the records: its last release, the next, and where it went', () => {
    const problems = brokenFile(site, (t) =>
      t
        .replace(
          '      lastIn: 2.0.0\n      reason: "A fixture record removed',
          '      lastIn: 2.1.0\n      reason: "A fixture record removed',
        )
        .replace('movedTo: sample-peak', 'movedTo: no-such-peak')
        .replace('id: renamed-peak', 'id: other-peak'),
    );
    expect(problems).toEqual([
      'content/settings/site.yaml: field "dataset.removedIds": "renamed-peak" was published in 2.0.0 (content/peak-data/2.0.0/peaks.json) but no record has it now; ids stay, so restore content/peaks/renamed-peak.yaml or list the id here with the release that removed it, the last that had it, why, and where it went (movedTo or addedInstead)',
      'content/settings/site.yaml: field "dataset.removedIds.0.lastIn": 2.1.0 is not an earlier release of the changelog',
      'content/settings/site.yaml: field "dataset.removedIds.1.id": "other-peak" is the id of content/peaks/other-peak.yaml; a removed id belongs to no record',
      'content/settings/site.yaml: field "dataset.removedIds.1.lastIn": content/peak-data/2.0.0/peaks.json has no record "other-peak"',
      'content/settings/site.yaml: field "dataset.removedIds.1.movedTo": "no-such-peak" is not the id of a record (there is no content/peaks/no-such-peak.yaml)',
    ]);
  });

  it('refuses a removed id whose peak a later kept release still has, or whose removedIn is not the release after lastIn', () => {
    const problems = problemsWith((content) => {
      const settings = path.join(content, site);
      writeFileSync(
        settings,
        withNextFixtureRelease(readFileSync(settings, 'utf8')).replace(
          '      removedIn: 2.1.0\n      lastIn: 2.0.0\n      reason: "A fixture record removed',
          '      removedIn: 2.2.0\n      lastIn: 2.0.0\n      reason: "A fixture record removed',
        ),
      );
      const kept = path.join(content, 'peak-data', '2.1.0');
      cpSync(path.join(content, 'peak-data', '2.0.0'), kept, { recursive: true });
      writeFileSync(
        path.join(kept, 'peaks.json'),
        readFileSync(path.join(kept, 'peaks.json'), 'utf8').replace('"version": "2.0.0"', '"version": "2.1.0"'),
      );
    });
    expect(problems).toEqual([
      'content/settings/site.yaml: field "dataset.removedIds.0.lastIn": 2.1.0 (content/peak-data/2.1.0/peaks.json) still has "retired-peak"; lastIn is the last release that has it',
      'content/settings/site.yaml: field "dataset.removedIds.0.removedIn": the release after 2.0.0 is 2.1.0, the first without "retired-peak"',
      'content/settings/site.yaml: field "dataset.removedIds.1.lastIn": 2.1.0 (content/peak-data/2.1.0/peaks.json) still has "renamed-peak"; lastIn is the last release that has it',
    ]);
  });
});
