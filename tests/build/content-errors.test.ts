/**
 * An editor's mistake stops `astro build` with the file, the field and a reason a person
 * understands. Every rule of the content check is shown case by case without building
 * (tests/unit/content-errors.test.ts); here two real builds of a scratch copy of the project
 * show the build stopping on them: on problems that only show when the records are read
 * together, with exactly the lines the check prints (as content-check.test.ts shows for ten
 * others), and at the social cards, which only the build draws.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkContent } from '../../domain/catalogue/content-check.ts';
import { fixtureContent } from '../helpers/content.ts';
import { buildProject, copyProject, type ProjectCopy } from '../helpers/project.ts';

const copies: ProjectCopy[] = [];
afterAll(() => copies.forEach((c) => c.remove()));

function brokenCopy(edits: Record<string, (text: string) => string>): ProjectCopy {
  const copy = copyProject({ content: fixtureContent });
  copies.push(copy);
  for (const [file, edit] of Object.entries(edits)) {
    const target = path.join(copy.dir, 'content', file);
    writeFileSync(target, edit(readFileSync(target, 'utf8')));
  }
  return copy;
}

/** The problem lines of a report (a YAML error's excerpt, indented under its line, is left out). */
const problemLines = (output: string) => output.split('\n').filter((line) => line.startsWith('- content/'));

describe('content validation at build time', () => {
  it('stops on problems between records and within a trip, printing what the content check finds, line for line', () => {
    const copy = brokenCopy({
      'peaks/other-peak.yaml': (t) =>
        `${t.replace('summary: A second fixture peak used only by the tests;', 'summary: It stands about 40 km south-west of Sample Peak; a second fixture peak used only by the tests;')}operatorTrip: missing-trip\n`,
      'trips/sample-trek.md': (t) =>
        t.replace(/startAltitudeM: 3500\n(\s+)endAltitudeM: 3900/, 'startAltitudeM: 2800\n$1endAltitudeM: 3900'),
    });
    const result = buildProject(copy.dir);
    expect(result.status).not.toBe(0);
    const lines = problemLines(result.output);
    expect(lines).toHaveLength(3);
    expect(
      lines.some(
        (line) =>
          line.includes('content/trips/sample-trek.md: field "itinerary.1.acclimatisationNote"') &&
          line.includes('raises the sleeping altitude by 900 m above 3000 m (from 2800 m to 3900 m)'),
      ),
    ).toBe(true);
    expect(lines.some((line) => line.includes('other-peak.yaml: field "operatorTrip" names "missing-trip"'))).toBe(
      true,
    );
    expect(
      lines.some((line) =>
        line.includes(
          'other-peak.yaml: field "summary": the sentence "It stands about 40 km south-west of Sample Peak;',
        ),
      ),
    ).toBe(true);
    // The same lines the content check gives for these files, in the same order.
    const checked = checkContent(path.join(copy.dir, 'content'), {
      siteUrl: 'http://localhost:4321',
      photoFiles: true,
    }).problems.map((p) => `- ${p.replaceAll(`${copy.dir}/`, '')}`);
    expect(lines).toEqual(checked.map((line) => line.split('\n')[0]));
    expect(result.output).not.toContain('Stack trace');
  });

  it('stops at the social cards, naming the trip whose words would not fit its card', () => {
    const copy = brokenCopy({
      'trips/sample-trek.md': (t) =>
        t.replace(
          'name: Fixture Trek',
          'name: Fixture Trek Across Every High Pass and Glacier Between the Two Longest Valleys of the Range',
        ),
    });
    const result = buildProject(copy.dir);
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('Social card of sample-trek:');
    expect(result.output).toMatch(/the title "Fixture Trek Across .*" takes 3 lines, at most 2 fit/);
  });
});
