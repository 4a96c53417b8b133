/**
 * The build's files compressed once, at build, for the Node host: each file it sends compressed
 * (service/host/static-files.ts, `isCompressible`) gets its Brotli form (quality 11) and its gzip
 * form (level 9) in the build's `compressed/` folder, at the file's own path plus `.br` or `.gz`
 * (`compressed/llms-full.txt.br`). The host reads them at a file's first request, so no request
 * compresses a built file. They sit beside `site/`, not in it: nothing of the published site
 * changes, and `/llms-full.txt.br` is no address.
 *
 * Compression runs on the thread pool, as many files at once as there are cores. Each form is
 * kept in node_modules/.cache/compressed under the hash of the bytes it compresses, so a rebuild
 * compresses only the files that changed; the forms no build has used for a month are removed
 * (the picture cache's rule, src/lib/picture-cache.ts).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { compressedForms, compressedName, isCompressible } from '../service/host/static-files.ts';
import { keepUnusedPicturesMs, prunePictureCache } from '../src/lib/picture-cache.ts';

/** Relative to the project the build runs in. */
export const compressedCacheFolder = path.join('node_modules', '.cache', 'compressed');

export interface CompressedBuild {
  files: number;
  bytes: number;
  compressedBytes: number;
  /** Forms taken from the cache rather than compressed. */
  fromCache: number;
}

let partials = 0;

/** Writes `bytes` whole or not at all (two files of the same bytes may be compressed at once). */
async function writeWhole(file: string, bytes: Uint8Array): Promise<void> {
  const partial = `${file}.${process.pid}-${(partials += 1)}.partial`;
  await writeFile(partial, bytes);
  await rename(partial, file);
}

/** The form of `body` under `key` from the cache, or compressed now and kept there. */
async function cachedForm(
  cache: string,
  key: string,
  form: keyof typeof compressedForms,
  body: Buffer,
): Promise<{ bytes: Buffer; cached: boolean }> {
  const file = path.join(cache, `${key}${compressedName[form]}`);
  try {
    const bytes = await readFile(file);
    const now = new Date();
    utimesSync(file, now, now); // used: pruning keeps it
    return { bytes, cached: true };
  } catch {
    const bytes = await compressedForms[form](body);
    await writeWhole(file, bytes);
    return { bytes, cached: false };
  }
}

/** Compresses every compressible file of `siteDir` into `outDir`. */
export async function compressBuild(
  siteDir: string,
  outDir: string,
  cache = path.resolve(compressedCacheFolder),
): Promise<CompressedBuild> {
  mkdirSync(cache, { recursive: true });
  const files = readdirSync(siteDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => isCompressible(file, statSync(file).size));
  const done: CompressedBuild = { files: files.length, bytes: 0, compressedBytes: 0, fromCache: 0 };
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      const body = await readFile(file);
      const key = createHash('sha256').update(body).digest('hex');
      const target = path.join(outDir, path.relative(siteDir, file));
      mkdirSync(path.dirname(target), { recursive: true });
      done.bytes += body.length;
      for (const form of ['br', 'gzip'] as const) {
        const { bytes, cached } = await cachedForm(cache, key, form, body);
        await writeFile(`${target}${compressedName[form]}`, bytes);
        done.compressedBytes += bytes.length;
        if (cached) done.fromCache += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: availableParallelism() }, worker));
  prunePictureCache(Date.now() - keepUnusedPicturesMs, cache);
  return done;
}
