/**
 * A rebuild after an editor's change reuses what did not change (the drawn social cards, the
 * pages Astro skips by their cache keys) and still writes exactly what a cold build of the same
 * content writes, file for file, byte for byte.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { differences, fileHashes } from '../../scripts/bench/rebuild.ts';
import { buildProject, copyProject, type ProjectCopy } from '../helpers/project.ts';
import { fixtureContent } from '../helpers/content.ts';

const copies: ProjectCopy[] = [];
afterAll(() => copies.forEach((c) => c.remove()));

function copy(): ProjectCopy {
  const made = copyProject({ content: fixtureContent, ownBuildCache: true });
  copies.push(made);
  return made;
}

const rename = (dir: string) => {
  const file = path.join(dir, 'content', 'trips', 'sample-trek.md');
  writeFileSync(file, readFileSync(file, 'utf8').replace('name: Fixture Trek', 'name: Fixture Trek Renamed'));
};

describe('a rebuild after one edit', () => {
  it('draws one card, skips the unchanged trip files, and writes the same bytes as a cold build', () => {
    const rebuilt = copy();
    const first = buildProject(rebuilt.dir);
    expect(first.status, first.output).toBe(0);
    expect(first.output).toContain('social cards: 2 drawn, 0 from the build cache');

    rename(rebuilt.dir);
    const second = buildProject(rebuilt.dir);
    expect(second.status, second.output).toBe(0);
    expect(second.output).toContain('social cards: 1 drawn, 1 from the build cache');
    // The other trip's page, /v1 answer and card come from the last build.
    for (const file of [
      '/expeditions/sample-expedition.html',
      '/v1/trips/sample-expedition.json',
      '/images/social/sample-expedition.png',
    ]) {
      expect(second.output).toMatch(new RegExp(`${file.replaceAll('.', '\\.')} \\((restored|cached)\\)`));
    }
    expect(second.output).not.toMatch(/\/treks\/sample-trek\.html \((restored|cached)\)/);

    const cold = copy();
    rename(cold.dir);
    const fresh = buildProject(cold.dir);
    expect(fresh.status, fresh.output).toBe(0);
    const rebuiltFiles = fileHashes(path.join(rebuilt.dir, 'dist', 'site'));
    expect(rebuiltFiles.size).toBeGreaterThan(50);
    expect(differences(rebuiltFiles, fileHashes(path.join(cold.dir, 'dist', 'site')))).toEqual([]);
  }, 600_000);
});
