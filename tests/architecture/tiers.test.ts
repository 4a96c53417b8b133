/**
 * Every test file runs in exactly one tier (tests/tiers.ts): a file no tier includes would
 * never run, and one two tiers include would run twice. Each tier has its npm script. The unit
 * tier starts no child process: its time is its own process's, whatever else the machine runs.
 */
import childProcess, { spawnSync } from 'node:child_process';
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

  it('keep child processes out of the unit tier: starting one fails the test that tries', () => {
    // This file is a unit file: tests/helpers/unit-setup.ts has run before it.
    expect(() => spawnSync(process.execPath, ['--version'])).toThrow(
      /^The unit tier starts no child process \(spawnSync /,
    );
    expect(() => childProcess.execFile('true')).toThrow(/^The unit tier starts no child process/);
  });

  it('each have `npm run test:<tier>`, and `npm test` runs them all', () => {
    const scripts = (
      JSON.parse(readFileSync(`${projectRoot}/package.json`, 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.test).toBe('vitest run');
    for (const tier of tiers) expect(scripts[`test:${tier.name}`], tier.name).toBe(`vitest run --project ${tier.name}`);
  });
});
