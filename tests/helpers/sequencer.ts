/**
 * The order test files start in, across every tier of the run: files that failed last time
 * first, then the longest first (by the last run's times, which Vitest keeps), so the long
 * browser files start early and the two workers finish together. Vitest's own order runs the
 * tiers one after another by name, which leaves the longest files of the last tier to the end.
 * A file with no time yet (a fresh checkout, as in CI) counts as a typical file of its tier.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

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
    const last = (spec: TestSpecification) =>
      cache.getFileTestResults(`${spec.project.name}:${relative(config.root, spec.moduleId)}`);
    const order = new Map(
      files.map((spec) => [
        spec,
        { failed: last(spec)?.failed ?? false, ms: last(spec)?.duration ?? typical[spec.project.name] ?? 0 },
      ]),
    );
    return [...files].sort((a, b) => {
      const [x, y] = [order.get(a)!, order.get(b)!];
      if (x.failed !== y.failed) return x.failed ? -1 : 1;
      return y.ms - x.ms;
    });
  }
}
