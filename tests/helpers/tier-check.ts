/**
 * The check for outside programs, once per run: as the run starts (before any tier's setup
 * builds anything), the programs of every tier that has a file in the run are checked together,
 * so a machine without several of them is told about all of them in one message. Each tier's
 * setup checks its own again (tests/helpers/global-setup.ts), for runs with other reporters.
 */
import type { Reporter, TestSpecification } from 'vitest/node';
import { tierNamed, type Tier } from '../tiers.ts';
import { missingRequirementsMessage } from './requirements.ts';

/** Stops the process with one message when a program of `list` is missing. */
export function stopIfMissing(list: readonly Tier[]): void {
  const packages = [...new Set(list.flatMap((tier) => tier.programs))];
  if (packages.length === 0) return;
  const missing = missingRequirementsMessage({ packages });
  if (!missing) return;
  // One plain message and an exit, not a stack trace: nothing can run until the programs are installed.
  process.stderr.write(`\n${missing}\n\n`);
  process.exit(1);
}

export default class TierCheck implements Reporter {
  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    const names = [...new Set(specifications.map((spec) => spec.project.name))];
    stopIfMissing(names.map(tierNamed));
  }
}
