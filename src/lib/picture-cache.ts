/**
 * Generated pictures kept between builds. A picture is stored under a hash of exactly what it
 * draws (the drawing as plain data) and the version of the code that draws it (its source
 * files, libraries and fonts), so a rebuild after editing one trip draws one card, and any
 * change to the drawing code draws them all again. A hit returns the bytes a fresh drawing
 * would, so a rebuild's output is the same, byte for byte, as a cold build's.
 *
 * The folder is `node_modules/.cache/pictures`: Vercel keeps `node_modules` between deploys
 * (docs/deployment.md), and a folder keyed by content can be shared by every copy of the
 * project that shares its dependencies. The build's last step removes the pictures no build has
 * used for a month (prunePictureCache), so edited-away cards do not pile up.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { readFile, rename, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { contentKey } from './content-key.ts';

/** Relative to the project the build runs in. */
export const pictureCacheFolder = path.join('node_modules', '.cache', 'pictures');

/** How long a picture no build has used is kept. */
export const keepUnusedPicturesMs = 30 * 24 * 60 * 60 * 1000;

/** A version of the drawing code: a hash of its parts (source text, library versions, font bytes). */
export function drawingVersion(parts: readonly (string | Uint8Array)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(createHash('sha256').update(part).digest());
  return hash.digest('hex');
}

/** A drawing's place in the cache: its content and the drawing code's version (content-key.ts). */
export const pictureKey = (drawing: unknown, version: string): string => contentKey(drawing, version);

export interface PictureCache {
  /** The picture of `drawing`, from the cache or drawn by `draw` and stored. */
  picture(drawing: unknown, version: string, extension: string, draw: () => Promise<Buffer>): Promise<Buffer>;
  /** True when the picture is kept; marks it used, as a rebuild may take its page from Astro's cache instead. */
  has(drawing: unknown, version: string, extension: string): boolean;
}

export function pictureCache(folder = path.resolve(pictureCacheFolder)): PictureCache {
  const fileOf = (drawing: unknown, version: string, extension: string) =>
    path.join(folder, `${pictureKey(drawing, version)}.${extension}`);
  return {
    has(drawing, version, extension) {
      const file = fileOf(drawing, version, extension);
      if (!existsSync(file)) return false;
      const now = new Date();
      utimesSync(file, now, now);
      return true;
    },
    async picture(drawing, version, extension, draw) {
      const file = fileOf(drawing, version, extension);
      try {
        const bytes = await readFile(file);
        // Marks the picture as used, so pruning keeps it.
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

/** Removes the pictures no build has used since `since`; returns how many. */
export function prunePictureCache(
  since = Date.now() - keepUnusedPicturesMs,
  folder = path.resolve(pictureCacheFolder),
): number {
  if (!existsSync(folder)) return 0;
  let removed = 0;
  for (const name of readdirSync(folder)) {
    const file = path.join(folder, name);
    // Another build sharing the cache may rename its written-aside file between the listing and here.
    const info = statSync(file, { throwIfNoEntry: false });
    if (info && info.mtimeMs < since) {
      rmSync(file, { force: true });
      removed += 1;
    }
  }
  return removed;
}
