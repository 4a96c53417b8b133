/**
 * `npm run check`, the editors' quick loop: every rule the build enforces on content, run
 * without building, every problem at once with its file, field and reason. Ten mistakes of
 * every kind are planted in a copy of the fixture content; the check names them all, and the
 * build stops on exactly the same list.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProject, copyProject, projectRoot } from '../helpers/project.ts';
import { fixtureContent } from '../helpers/content.ts';

const copy = copyProject({ content: fixtureContent });
afterAll(() => copy.remove());

/** `npm run check` in the copy, as an editor runs it in their checkout. */
function check(content: string) {
  const result = spawnSync(process.execPath, [path.join(copy.dir, 'scripts', 'check-content.ts')], {
    cwd: copy.dir,
    env: { ...process.env, CONTENT_DIR: content, FORCE_COLOR: '0' },
    encoding: 'utf8',
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const edit = (file: string, change: (text: string) => string) => {
  const target = path.join(copy.dir, 'content', file);
  writeFileSync(target, change(readFileSync(target, 'utf8')));
};
const replace = (from: string, to: string) => (text: string) => {
  expect(text).toContain(from);
  return text.replace(from, to);
};

/** The problem lines of a report (a YAML error's excerpt, indented under its line, is left out). */
const problemLines = (output: string) => output.split('\n').filter((line) => line.startsWith('- content/'));

describe('npm run check', () => {
  it('passes the fixture and the real content, in seconds, without building', () => {
    const fixture = check('./content');
    expect(fixture.status).toBe(0);
    expect(fixture.output).toMatch(
      /^Checked 2 trips, 2 peaks and 2 settings files in \.\/content \(\d+\.\d s\): no problems\.$/m,
    );
    const real = check(path.join(projectRoot, 'content'));
    expect(real.status, real.output).toBe(0);
    expect(real.output).toContain('no problems');
  });

  it('names every planted problem at once, each with its file, field and reason, and the build stops on the same list', () => {
    const original = readFileSync(path.join(copy.dir, 'content', 'trips', 'sample-trek.md'), 'utf8');
    // A file name that is not a slug, and a peak file whose YAML cannot be read.
    writeFileSync(path.join(copy.dir, 'content', 'trips', 'Sample_Trek.md'), original);
    writeFileSync(path.join(copy.dir, 'content', 'peaks', 'broken-peak.yaml'), 'name: [Broken Peak\naltitudeM: 6000\n');
    // One trek with a wrong value, a night 1,100 m above the last, and a walking time only in the prose.
    edit('trips/sample-trek.md', (text) =>
      [
        replace('difficulty: Moderate', 'difficulty: Hard'),
        replace(
          '    endAltitudeM: 3900\n    description: Fixture day one description text.',
          '    endAltitudeM: 4600\n    description: Fixture day one takes most groups 4 to 6 hours.',
        ),
        replace('    startAltitudeM: 3900\n    endAltitudeM: 3500', '    startAltitudeM: 4600\n    endAltitudeM: 3500'),
      ].reduce((t, change) => change(t), text),
    );
    // A peak without its range and with a date that does not exist.
    edit('peaks/other-peak.yaml', (text) =>
      replace('lastVerified: 2026-11-22', 'lastVerified: 30/02/2026')(text.replace(/^range: .*\n/m, '')),
    );
    // Records valid on their own but not together: a grade the peak does not have, a photograph
    // that is not there, a peak whose only reference is the operator's own site.
    edit('trips/sample-expedition.md', (text) =>
      replace(
        'alpineGrade: PD',
        'alpineGrade: AD',
      )(text).replace(
        'sources:\n',
        'photos:\n  - { file: images/summit-day.jpg, alt: The summit ridge at dawn, credit: A. Photographer, licence: CC BY-SA 4.0 }\nsources:\n',
      ),
    );
    edit('peaks/sample-peak.yaml', (text) =>
      text.replaceAll('https://example.org/sample-peak', 'https://theverticaltribe.com/peak-data/'),
    );

    const result = check('./content');
    expect(result.status).toBe(1);
    const expected = [
      'content/trips/Sample_Trek.md: the file name "Sample_Trek" is used as the id and must use only lowercase letters, digits and hyphens',
      'content/peaks/broken-peak.yaml: the YAML cannot be read',
      'content/trips/sample-trek.md: field "difficulty": must be one of "Easy", "Moderate", "Difficult", "Very Difficult" (it is "Hard")',
      'content/trips/sample-trek.md: field "itinerary.1.acclimatisationNote": day 1 breaks the acclimatisation rule: it raises the sleeping altitude by 1100 m above 3000 m (from 3500 m to 4600 m), over the limit of 500 m a night',
      'content/trips/sample-trek.md: field "itinerary.1.walkingHours": day 1\'s description gives a walking time',
      'content/peaks/other-peak.yaml: field "range": is required',
      'content/peaks/other-peak.yaml: field "lastVerified": "30/02/2026" is not a real date; write it as YYYY-MM-DD',
      'content/trips/sample-expedition.md: field "photos.1.file": there is no file content/trips/images/summit-day.jpg',
      'content/trips/sample-expedition.md: field "alpineGrade" is AD, but sample-peak\'s technicalGrade is PD',
      'content/peaks/sample-peak.yaml: field "references" lists only the operator\'s own pages',
    ];
    const lines = problemLines(result.output);
    expect(result.output).toContain(`The content has ${expected.length} problems:`);
    expect(lines).toHaveLength(expected.length);
    for (const problem of expected)
      expect(
        lines.filter((line) => line.startsWith(`- ${problem}`)),
        problem,
      ).toHaveLength(1);
    // Each file's problems together.
    expect(lines.map((line) => line.slice(2, line.indexOf(': ')))).toEqual([
      'content/trips/Sample_Trek.md',
      'content/peaks/broken-peak.yaml',
      ...Array(3).fill('content/trips/sample-trek.md'),
      ...Array(2).fill('content/peaks/other-peak.yaml'),
      ...Array(2).fill('content/trips/sample-expedition.md'),
      'content/peaks/sample-peak.yaml',
    ]);

    const build = buildProject(copy.dir);
    expect(build.status).not.toBe(0);
    expect(problemLines(build.output)).toEqual(lines);
    expect(build.output).not.toContain('Stack trace');
    // The build stopped while reading the content: no page was written.
    expect(build.output).not.toContain('generating static routes');
  }, 240_000);

  it("counts a link to a file that exists but fails its own checks as that file's problem only", () => {
    const dir = path.join(copy.dir, 'linked');
    cpSync(fixtureContent, dir, { recursive: true });
    mkdirSync(path.join(dir, 'trips', 'images'), { recursive: true });
    // The expedition's peak file is broken: the expedition's link to it is not reported as well.
    writeFileSync(
      path.join(dir, 'peaks', 'sample-peak.yaml'),
      readFileSync(path.join(dir, 'peaks', 'sample-peak.yaml'), 'utf8').replace(
        'technicalGrade: PD',
        'technicalGrade: Z',
      ),
    );
    const result = check('./linked');
    rmSync(dir, { recursive: true, force: true });
    expect(problemLines(result.output.replaceAll('- linked/', '- content/'))).toEqual([
      expect.stringMatching(
        /^- content\/peaks\/sample-peak\.yaml: field "technicalGrade": must be one of "F", .* \(it is "Z"\)$/,
      ),
    ]);
  });

  it('refuses a summit position without a source and a wikidataId not of the form Q<digits>, naming the file and the field', () => {
    const dir = path.join(copy.dir, 'ids');
    cpSync(fixtureContent, dir, { recursive: true });
    mkdirSync(path.join(dir, 'trips', 'images'), { recursive: true });
    const peak = (name: string) => path.join(dir, 'peaks', name);
    // A position whose source was left out, and one peak's Wikidata id written without its Q.
    writeFileSync(
      peak('other-peak.yaml'),
      readFileSync(peak('other-peak.yaml'), 'utf8').replace(', source: https://example.org/other-peak }', ' }'),
    );
    writeFileSync(
      peak('sample-peak.yaml'),
      `${readFileSync(peak('sample-peak.yaml'), 'utf8')}wikidataId: { id: "42", source: https://example.org/sample-peak }\n`,
    );
    const refused = check('./ids');
    // A well-formed id from a source the record does not cite is refused too: ids are never guessed.
    writeFileSync(
      peak('sample-peak.yaml'),
      readFileSync(peak('sample-peak.yaml'), 'utf8').replace(
        'id: "42", source: https://example.org/sample-peak',
        'id: Q42, source: https://www.wikidata.org/wiki/Q42',
      ),
    );
    const uncited = check('./ids');
    rmSync(dir, { recursive: true, force: true });
    expect(refused.status).toBe(1);
    expect(problemLines(refused.output.replaceAll('- ids/', '- content/'))).toEqual([
      '- content/peaks/other-peak.yaml: field "coordinates.source": is required: the full web address of the reference (one of the record\'s references) that gives it',
      '- content/peaks/sample-peak.yaml: field "wikidataId.id": must be a Wikidata item id: Q followed by digits, for example Q1234 (it is "42")',
    ]);
    expect(problemLines(uncited.output.replaceAll('- ids/', '- content/'))).toContainEqual(
      '- content/peaks/sample-peak.yaml: field "wikidataId.source": https://www.wikidata.org/wiki/Q42 is not among the references; add it there or cite one of them',
    );
  });
});
