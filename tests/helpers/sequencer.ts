/**
 * The order test files start in, across every tier of the run: files that failed last time
 * first; then tier by tier, the tier with the longest file first, and within a tier the longest
 * first (by the last run's times, which Vitest keeps), so the long files start early and the
 * short ones fill the end. A checkout with no run of its own (a fresh one, as in CI) takes the
 * times in tests/timings.json (`npm run test:timings` writes them from a run); a file with no
 * time at all counts as a typical file of its tier.
 *
 * Tier by tier, because a worker is kept for the next file only when that file is of the same
 * tier (workers are not shared across tiers, vitest.config.ts): Vitest hands a finished worker
 * the file at the head of the queue if it can run it, and otherwise stops it and starts a new
 * one. Longest first across tiers alternated them, and a run started 63 to 65 workers where
 * tier by tier it starts 19, and the workers took 77 to 102 s less CPU (docs/testing.md).
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
    const longest = new Map<string, number>();
    for (const spec of files)
      longest.set(spec.project.name, Math.max(longest.get(spec.project.name) ?? 0, order.get(spec)!.ms));
    return [...files].sort((a, b) => {
      const [x, y] = [order.get(a)!, order.get(b)!];
      if (x.failed !== y.failed) return x.failed ? -1 : 1;
      const [tierA, tierB] = [a.project.name, b.project.name];
      if (tierA !== tierB) return longest.get(tierB)! - longest.get(tierA)! || tierA.localeCompare(tierB);
      return y.ms - x.ms;
    });
  }
}
