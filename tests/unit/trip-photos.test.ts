/**
 * Editors' photographs in a trip file: each needs its file, alt text, credit and licence; the
 * build checks the file exists, and the live functions, which read the same files, ignore them.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { load } from 'js-yaml';
import { photoFileProblems, readContent, readFolder } from '../../domain/catalogue/content-files.ts';
import { buildCatalogue } from '../../domain/catalogue/index.ts';
import { tripContent } from '../../domain/schemas/trip.ts';
import { fixtureContent } from '../helpers/content.ts';

const trek = load(
  readFileSync(path.join(fixtureContent, 'trips', 'sample-trek.md'), 'utf8').split(/^---$/m)[1] ?? '',
) as Record<string, unknown>;
const photo = {
  file: 'images/sample-trek-1.jpg',
  alt: 'Tents on a meadow below the pass',
  credit: 'A. Photographer',
  licence: 'CC BY-SA 4.0',
  licenceUrl: 'https://creativecommons.org/licenses/by-sa/4.0/',
};
const issues = (photos: unknown) => {
  const result = tripContent.safeParse({ ...trek, photos });
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A copy of the fixture content whose trek names a photograph, written or not. */
function contentWithPhoto(file: string, write: boolean): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'photo-content-'));
  dirs.push(dir);
  cpSync(fixtureContent, dir, { recursive: true });
  const trip = path.join(dir, 'trips', 'sample-trek.md');
  writeFileSync(
    trip,
    readFileSync(trip, 'utf8').replace(
      'sources:\n',
      `photos:\n  - file: ${file}\n    alt: ${photo.alt}\n    credit: ${photo.credit}\n    licence: ${photo.licence}\nsources:\n`,
    ),
  );
  if (write) {
    mkdirSync(path.join(dir, 'trips', 'images'), { recursive: true });
    writeFileSync(path.join(dir, 'trips', file), 'not read by these checks');
  }
  return dir;
}

describe('trip photographs', () => {
  it('accepts a photograph with its alt text, credit and licence, and keeps them optional as a list', () => {
    expect(issues([photo])).toEqual([]);
    expect(issues(undefined)).toEqual([]);
    expect(tripContent.parse({ ...trek, photos: [photo] }).photos?.[0]).toMatchObject({
      file: photo.file,
      alt: photo.alt,
    });
  });

  it('refuses a photograph without alt text, credit or licence, naming the field', () => {
    const { alt: _alt, ...noAlt } = photo;
    expect(issues([noAlt]).join('\n')).toMatch(/photos\.0\.alt: is required: describe what the photograph shows/);
    expect(issues([{ ...photo, alt: '   ' }]).join('\n')).toMatch(/photos\.0\.alt: is required/);
    const { credit: _credit, licence: _licence, ...bare } = photo;
    const found = issues([bare]).join('\n');
    expect(found).toMatch(/photos\.0\.credit: is required/);
    expect(found).toMatch(/photos\.0\.licence: is required/);
  });

  it('refuses a file that is not a photograph format and a licence address that is not a web address', () => {
    expect(issues([{ ...photo, file: 'images/notes.txt' }]).join('\n')).toMatch(
      /photos\.0\.file: must name a photograph file ending in \.jpg/,
    );
    expect(issues([{ ...photo, licenceUrl: 'creativecommons' }]).join('\n')).toMatch(
      /photos\.0\.licenceUrl: must be a full web address/,
    );
  });

  it('names the trip file and the field when the photograph is not there', () => {
    const dir = contentWithPhoto('images/sample-trek-1.jpg', false);
    const [entry] = readFolder(path.join(dir, 'trips'), '.md').filter((e) => e.id === 'sample-trek');
    expect(entry && photoFileProblems(entry)).toEqual([
      expect.stringMatching(
        /sample-trek\.md: field "photos\.1\.file": there is no file .*trips\/images\/sample-trek-1\.jpg/,
      ),
    ]);
    const present = contentWithPhoto('images/sample-trek-1.jpg', true);
    const [found] = readFolder(path.join(present, 'trips'), '.md').filter((e) => e.id === 'sample-trek');
    expect(found && photoFileProblems(found)).toEqual([]);
  });

  it('does not stop the live functions, which read the same files and ignore photographs', () => {
    // The photograph is missing on purpose: the functions never open it.
    const catalogue = buildCatalogue(
      readContent(contentWithPhoto('images/sample-trek-1.jpg', false)),
      'https://example.test',
    );
    const page = catalogue.trips.find((t) => t.trip.slug === 'sample-trek');
    expect(page?.content.photos?.[0]?.file).toBe('images/sample-trek-1.jpg');
    expect(Object.keys(page?.trip ?? {})).not.toContain('photos');
  });
});
