/**
 * Every test file runs in exactly one tier (tests/tiers.ts): a file no tier includes would
 * never run, and one two tiers include would run twice. Each tier has its npm script.
 */
import { globSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/project.ts';
import { tiers } from '../tiers.ts';

const files = globSync('tests/**/*.test.ts', { cwd: projectRoot }).sort();
const tiersOf = (file: string) =>
  tiers
    .filter((tier) => tier.include.some((pattern) => globSync(pattern, { cwd: projectRoot }).includes(file)))
    .map((tier) => tier.name);

describe('the test tiers', () => {
  it('hold every test file exactly once', () => {
    expect(files.length).toBeGreaterThan(80);
    const wrong = files.map((file) => ({ file, tiers: tiersOf(file) })).filter((entry) => entry.tiers.length !== 1);
    expect(wrong).toEqual([]);
  });

  it('each match a file with every pattern, so none is left over from a renamed file', () => {
    for (const tier of tiers)
      for (const pattern of tier.include)
        expect(globSync(pattern, { cwd: projectRoot }), `${tier.name}: ${pattern}`).not.toEqual([]);
  });

  it('each have `npm run test:<tier>`, and `npm test` runs them all', () => {
    const scripts = (
      JSON.parse(readFileSync(`${projectRoot}/package.json`, 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.test).toBe('vitest run');
    for (const tier of tiers) expect(scripts[`test:${tier.name}`], tier.name).toBe(`vitest run --project ${tier.name}`);
  });
});
