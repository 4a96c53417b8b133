/**
 * Writes tests/timings.json from the last run's times, which Vitest keeps in
 * node_modules/.vite/vitest/<hash>/results.json: each test file's time, in whole seconds, under its
 * tier. The sequencer (tests/helpers/sequencer.ts) reads them for a checkout that has no run of
 * its own yet, as CI's has not. `npm run test:timings` after a whole `npm test`.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');
const cache = path.join(root, 'node_modules', '.vite', 'vitest');
const newest = readdirSync(cache)
  .map((hash) => path.join(cache, hash, 'results.json'))
  .filter((file) => statSync(file, { throwIfNoEntry: false })?.isFile())
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
if (!newest) throw new Error(`no run's times in ${cache}: run npm test first`);

const { results } = JSON.parse(readFileSync(newest, 'utf8')) as {
  results: [string, { duration?: number; failed?: boolean }][];
};
const seconds = Object.fromEntries(
  results
    // Vitest keeps the times of files since removed: only files that still exist are written.
    .filter(
      ([file, result]) =>
        result.duration !== undefined && existsSync(path.join(root, file.slice(file.indexOf(':') + 1))),
    )
    .map(([file, result]) => [file, Math.round((result.duration ?? 0) / 1000)] as const)
    .sort(([a], [b]) => a.localeCompare(b)),
);
writeFileSync(path.join(root, 'tests', 'timings.json'), `${JSON.stringify(seconds, null, 2)}\n`);
console.log(`tests/timings.json: ${Object.keys(seconds).length} files, from ${path.relative(root, newest)}`);
