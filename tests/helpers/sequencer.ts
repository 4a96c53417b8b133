/**
 * The order test files start in, across every tier of the run: files that failed last time
 * first, then the longest first (by the last run's times, which Vitest keeps), so the long
 * browser files start early and the workers finish together. Vitest's own order runs the
 * tiers one after another by name, which leaves the longest files of the last tier to the end.
 * A checkout with no run of its own (a fresh one, as in CI) takes the times in tests/timings.json
 * (`npm run test:timings` writes them from a run); a file with no time at all counts as a typical
 * file of its tier.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Each file's time in a recent whole run, in seconds, by `<tier>:<file>`. */
const recorded = JSON.parse(readFileSync(new URL('../timings.json', import.meta.url), 'utf8')) as Record<
  string,
  number
>;

/** Roughly how long a file of each tier takes, in ms, for files not timed yet. */
const typical: Record<string, number> = {
  site: 30_000,
  storage: 15_000,
  build: 15_000,
  hardening: 8_000,
  http: 5_000,
  unit: 500,
};

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const key = (spec: TestSpecification) => `${spec.project.name}:${relative(config.root, spec.moduleId)}`;
    const last = (spec: TestSpecification) => cache.getFileTestResults(key(spec));
    const ms = (spec: TestSpecification) => {
      const seconds = recorded[key(spec)];
      return (
        last(spec)?.duration ?? (seconds === undefined ? undefined : seconds * 1000) ?? typical[spec.project.name] ?? 0
      );
    };
    const order = new Map(files.map((spec) => [spec, { failed: last(spec)?.failed ?? false, ms: ms(spec) }]));
    return [...files].sort((a, b) => {
      const [x, y] = [order.get(a)!, order.get(b)!];
      if (x.failed !== y.failed) return x.failed ? -1 : 1;
      return y.ms - x.ms;
    });
  }
}
