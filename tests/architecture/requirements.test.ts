/**
 * The suite says what it needs, tier by tier: the programs each tier starts are the Debian
 * packages .ci/run installs, the unit tier starts none, and a machine missing several is told
 * all of them in one install command. That a run really stops before any test on such a machine,
 * and that a unit file runs there, is shown by running Vitest itself as a child process, which
 * the unit tier does not start: tests/build/requirements.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/project.ts';
import { debianPackages, missingRequirementsMessage, requirements } from '../helpers/requirements.ts';
import { tiers } from '../tiers.ts';

const scratch = mkdtempSync(path.join(tmpdir(), 'requirements-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the programs the tests need', () => {
  it('name every program missing on a bare machine in one install command', () => {
    const message = missingRequirementsMessage({
      env: {
        PATH: path.join(scratch, 'empty'),
        CHROME_PATH: path.join(scratch, 'no-chromium'),
        POSTGRES_ROOT: path.join(scratch, 'no-postgresql'),
        PYTHON3_PATH: path.join(scratch, 'no-python3'),
        PGBOUNCER_PATH: path.join(scratch, 'no-pgbouncer'),
      },
    });
    for (const program of [
      'chromium-headless-shell',
      'initdb',
      'pg_ctl',
      'postgres',
      'pgbouncer',
      'redis-server',
      'ogrinfo',
      'ogr2ogr',
      'pandas',
      'rnc2rng',
      'lxml',
    ])
      expect(message).toContain(`- ${program} (`);
    expect(message).toMatch(
      /apt-get install -y chromium-headless-shell postgresql pgbouncer redis-server gdal-bin python3-pandas python3-rnc2rng python3-lxml( util-linux)?\n/,
    );
  });

  it('are the Debian packages .ci/run installs, and each is started by some tier', () => {
    const ci = readFileSync(path.join(projectRoot, '.ci', 'run'), 'utf8');
    const listed = /^packages=\(([^)]*)\)/m.exec(ci)?.[1]?.trim().split(/\s+/);
    // util-linux (runuser) is part of every Debian system, so CI never needs to install it.
    expect(listed).toEqual(debianPackages(requirements()).filter((p) => p !== 'util-linux'));
    expect([...new Set(tiers.flatMap((tier) => tier.programs))].sort()).toEqual([...(listed ?? [])].sort());
    expect(tiers.find((tier) => tier.name === 'unit')?.programs).toEqual([]);
  });
});
