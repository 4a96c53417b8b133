/**
 * `npm run peak-data -- archive` keeps the current release's files before the version is raised,
 * as the canonical site publishes them; the content check then asks for the next release, and
 * from then on lists the kept release with its files at their versioned addresses.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkContent } from '../../domain/catalogue/content-check.ts';
import { buildCatalogue } from '../../domain/catalogue/index.ts';
import { peakDataFileList, peakDataFiles } from '../../domain/catalogue/peak-data-files.ts';
import { datasetReleases, readReleaseArchive } from '../../domain/catalogue/releases.ts';
import { runPeakDataCommand } from '../../service/peak-data/archive.ts';
import { peakDataFileBody } from '../../service/peak-data/files.ts';
import { fixtureContent, readContent, withNextFixtureRelease } from '../helpers/content.ts';

const scratch = mkdtempSync(path.join(tmpdir(), 'peak-data-archive-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function run(args: string[], dir: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = runPeakDataCommand(args, {
    env: { CONTENT_DIR: dir },
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
  });
  return code.then((exit) => ({ exit, stdout: out.join(''), stderr: err.join('') }));
}

describe('npm run peak-data -- archive', () => {
  const dir = path.join(scratch, 'content');
  cpSync(fixtureContent, dir, { recursive: true });
  const check = () => checkContent(dir, { siteUrl: 'http://localhost:4321', photoFiles: true }).problems;

  it("keeps the current release's files as the canonical site publishes them, and refuses to keep them twice", async () => {
    const source = readContent(dir);
    const canonical = buildCatalogue(source, source.site.siteUrl);
    const expected = Object.fromEntries(
      peakDataFileList.map((file) => [
        file.name,
        peakDataFileBody(file, canonical, datasetReleases(source.site, readReleaseArchive(dir).releases)),
      ]),
    );

    const kept = await run(['archive'], dir);
    expect(kept).toMatchObject({ exit: 0, stderr: '' });
    expect(kept.stdout).toContain('Kept release 2.1.0 in');
    const folder = path.join(dir, 'peak-data', '2.1.0');
    expect(readdirSync(folder).sort()).toEqual(peakDataFileList.map((f) => f.name).sort());
    for (const [name, body] of Object.entries(expected))
      expect(readFileSync(path.join(folder, name), 'utf8')).toBe(body);
    expect(readFileSync(path.join(folder, peakDataFiles.json.name), 'utf8')).toContain(
      '"attribution": "Indian Himalayan Peak Dataset v2.1.0 by The Vertical Tribe (https://theverticaltribe.com)',
    );

    // Until the version is raised, the kept files are those of the current version, which the build writes.
    expect(check()).toEqual([
      expect.stringMatching(/content\/peak-data\/2\.1\.0: keeps files of 2\.1\.0, the current version/),
    ]);
    const again = await run(['archive'], dir);
    expect(again.exit).toBe(1);
    expect(again.stderr).toMatch(/keeps files of 2\.1\.0, the current version[\s\S]*Nothing was kept: fix these first/);
  });

  it('lets the next release through once the version is raised, listing the kept one with its files', () => {
    const settings = path.join(dir, 'settings', 'site.yaml');
    writeFileSync(settings, withNextFixtureRelease(readFileSync(settings, 'utf8')));
    expect(check()).toEqual([]);
    const source = readContent(dir);
    const releases = datasetReleases(source.site, readReleaseArchive(dir).releases);
    expect(releases.map((r) => [r.version, r.current, r.files.length])).toEqual([
      ['2.2.0', true, peakDataFileList.length],
      ['2.1.0', false, peakDataFileList.length],
      ['2.0.0', false, 1],
    ]);
    expect(releases[1]!.files.find((f) => f.name === 'peaks.csv')).toMatchObject({
      path: '/peak-data/2.1.0/peaks.csv',
      mediaType: 'text/csv; charset=utf-8',
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('refuses an unknown command and explains itself', async () => {
    const wrong = await run(['freeze'], dir);
    expect(wrong.exit).toBe(1);
    expect(wrong.stderr).toContain('freeze is not a command of npm run peak-data');
    expect((await run(['help'], dir)).stdout).toContain('Usage: npm run peak-data -- archive');
  });
});
