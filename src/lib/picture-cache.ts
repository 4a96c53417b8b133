/**
 * Generated pictures kept between builds. A picture is stored under a hash of exactly what it
 * draws (the drawing as plain data) and the version of the code that draws it (its source
 * files, libraries and fonts), so a rebuild after editing one trip draws one card, and any
 * change to the drawing code draws them all again. A hit returns the bytes a fresh drawing
 * would, so a rebuild's output is the same, byte for byte, as a cold build's.
 *
 * The folder sits in Astro's cache folder, which the Vercel Build Output keeps between deploys
 * (scripts/build-output.mjs, docs/deployment.md). The build's last step removes the pictures
 * this build did not use (prunePictureCache), so the folder holds one build's worth.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { readFile, rename, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Under Astro's cacheDir (astro.config.mjs), relative to the project the build runs in. */
export const pictureCacheFolder = path.join('.astro', 'cache', 'pictures');

/** A version of the drawing code: a hash of its parts (source text, library versions, font bytes). */
export function drawingVersion(parts: readonly (string | Uint8Array)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(createHash('sha256').update(part).digest());
  return hash.digest('hex');
}

/** Stable JSON: object keys sorted, so the same drawing always gives the same key. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

export function pictureKey(drawing: unknown, version: string): string {
  return createHash('sha256').update(version).update('\0').update(canonical(drawing)).digest('hex');
}

export interface PictureCache {
  /** The picture of `drawing`, from the cache or drawn by `draw` and stored. */
  picture(drawing: unknown, version: string, extension: string, draw: () => Promise<Buffer>): Promise<Buffer>;
  has(drawing: unknown, version: string, extension: string): boolean;
}

export function pictureCache(folder = path.resolve(pictureCacheFolder)): PictureCache {
  const fileOf = (drawing: unknown, version: string, extension: string) => path.join(folder, `${pictureKey(drawing, version)}.${extension}`);
  return {
    has: (drawing, version, extension) => existsSync(fileOf(drawing, version, extension)),
    async picture(drawing, version, extension, draw) {
      const file = fileOf(drawing, version, extension);
      try {
        const bytes = await readFile(file);
        // Marks the picture as used by this build, so pruning keeps it.
        const now = new Date();
        await utimes(file, now, now);
        return bytes;
      } catch {
        // Not cached yet (or unreadable): draw it.
      }
      const bytes = await draw();
      mkdirSync(folder, { recursive: true });
      // Written aside and renamed, so a build stopped halfway never leaves half a picture.
      const partial = `${file}.${process.pid}.partial`;
      await writeFile(partial, bytes);
      await rename(partial, file);
      return bytes;
    },
  };
}

/** Removes the pictures no build has used since `since` (the start of the current build). */
export function prunePictureCache(since: number, folder = path.resolve(pictureCacheFolder)): number {
  if (!existsSync(folder)) return 0;
  let removed = 0;
  for (const name of readdirSync(folder)) {
    const file = path.join(folder, name);
    if (statSync(file).mtimeMs < since) {
      rmSync(file, { force: true });
      removed += 1;
    }
  }
  return removed;
}
