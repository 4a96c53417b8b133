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
    expect(result.output).toContain('content/peaks/other-peak.yaml');
    expect(result.output).toMatch(/range.*Required/s);
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
});
