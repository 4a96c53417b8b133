/**
 * A photograph added by an editor goes through Astro's image pipeline: AVIF and WebP at several
 * widths with a fallback, its size set, loaded lazily, credited. A missing file or alt text
 * stops the build naming the file and field. The photograph is drawn by the test itself.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProject, copyProject, type BuildResult, type ProjectCopy } from '../helpers/project.ts';
import { fixtureContent } from '../helpers/content.ts';

const copies: ProjectCopy[] = [];
afterAll(() => copies.forEach((c) => c.remove()));

const photoEntry = (file: string, alt: string) =>
  `photos:\n  - file: ${file}\n    alt: ${alt}\n    credit: Test Drawing\n    licence: CC0 1.0\n    licenceUrl: https://creativecommons.org/publicdomain/zero/1.0/\n    sourceUrl: https://example.org/drawing\n`;

/** Builds the fixture site with the trek naming a photograph; `draw` writes the file too. */
async function buildWithPhoto(options: {
  file: string;
  alt: string;
  draw: boolean;
}): Promise<{ copy: ProjectCopy; result: BuildResult }> {
  const copy = copyProject({ content: fixtureContent });
  copies.push(copy);
  const trip = path.join(copy.dir, 'content', 'trips', 'sample-trek.md');
  writeFileSync(
    trip,
    readFileSync(trip, 'utf8').replace('sources:\n', `${photoEntry(options.file, options.alt)}sources:\n`),
  );
  if (options.draw) {
    const drawing = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="600"><rect width="1000" height="600" fill="#9cc3e6"/><path d="M0 600 L300 250 L500 420 L720 180 L1000 600 Z" fill="#2f5d50"/></svg>`;
    mkdirSync(path.join(copy.dir, 'content', 'trips', 'images'), { recursive: true });
    await sharp(Buffer.from(drawing))
      .jpeg()
      .toFile(path.join(copy.dir, 'content', 'trips', options.file));
  }
  return { copy, result: buildProject(copy.dir) };
}

describe('photographs in the build', () => {
  let html = '';
  let built: ProjectCopy;

  beforeAll(async () => {
    const { copy, result } = await buildWithPhoto({
      file: 'images/sample-trek-ridge.jpg',
      alt: 'A drawn ridge under a pale sky',
      draw: true,
    });
    expect(result.status, result.output).toBe(0);
    built = copy;
    html = readFileSync(path.join(copy.dir, 'dist', 'site', 'treks', 'sample-trek.html'), 'utf8');
  }, 240_000);

  it('renders the photograph as a picture with AVIF and WebP sources at several widths and a JPEG fallback', () => {
    const picture = /<picture[^>]*>([\s\S]*?)<\/picture>/.exec(html)?.[1] ?? '';
    expect(picture).toMatch(
      /<source srcset="[^"]+\.avif 480w, [^"]+\.avif 800w, [^"]+\.avif 1000w" type="image\/avif"/,
    );
    expect(picture).toMatch(/<source srcset="[^"]+\.webp 480w[^"]*" type="image\/webp"/);
    const img = /<img [^>]*>/.exec(picture)?.[0] ?? '';
    expect(img).toMatch(/src="\/_astro\/[^"]+\.jpg"/);
    expect(img).toContain('alt="A drawn ridge under a pale sky"');
    expect(img).toContain('width="1000"');
    expect(img).toContain('height="600"');
    expect(img).toContain('loading="lazy"');
    expect(img).toContain('sizes="');
    expect(img).not.toContain('style=');
    for (const [, src] of picture.matchAll(/(\/_astro\/[^\s",]+)/g))
      expect(readFileSync(path.join(built.dir, 'dist', 'site', src ?? '')).length, src).toBeGreaterThan(100);
  });

  it('credits the photograph with its licence and source', () => {
    const caption = /<figcaption[^>]*>\s*(Photo:[\s\S]*?)<\/figcaption>/.exec(html)?.[1] ?? '';
    expect(caption).toContain('Test Drawing');
    expect(caption).toMatch(
      /<a href="https:\/\/creativecommons.org\/publicdomain\/zero\/1.0\/" rel="license"[^>]*>CC0 1.0<\/a>/,
    );
    expect(caption).toMatch(/<a href="https:\/\/example.org\/drawing"[^>]*>Original<\/a>/);
  });

  it('stops the build when the photograph is missing, naming the trip file and the field', async () => {
    const { result } = await buildWithPhoto({ file: 'images/not-there.jpg', alt: 'Anything', draw: false });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain(
      'content/trips/sample-trek.md: field "photos.1.file": there is no file content/trips/images/not-there.jpg',
    );
  }, 240_000);

  it('stops the build when a photograph has no alt text, naming the trip and the field', async () => {
    const { result } = await buildWithPhoto({ file: 'images/sample-trek-ridge.jpg', alt: '""', draw: true });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain(
      'content/trips/sample-trek.md: field "photos.1.alt": is required: describe what the photograph shows',
    );
  }, 240_000);
});
