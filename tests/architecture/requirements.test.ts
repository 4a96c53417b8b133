/**
 * The suite says what it needs, tier by tier: a run whose tiers start a program this machine
 * lacks stops before any test with one message naming every such program and the command that
 * installs them; the unit tier starts none and never looks. Shown by running the real Vitest
 * with a PATH that has no redis-server, a CHROME_PATH and a POSTGRES_ROOT that lead nowhere.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/project.ts';
import { debianPackages, missingRequirementsMessage, requirements } from '../helpers/requirements.ts';
import { tiers } from '../tiers.ts';

const scratch = mkdtempSync(path.join(tmpdir(), 'requirements-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** This machine's PATH with `program` taken out: each folder that holds it is replaced by a copy of its links without it. */
function pathWithout(program: string): string {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .map((dir, index) => {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        return dir;
      }
      if (!names.includes(program)) return dir;
      const copy = path.join(scratch, `path-${index}`);
      rmSync(copy, { recursive: true, force: true });
      mkdirSync(copy);
      for (const name of names) if (name !== program) symlinkSync(path.join(dir, name), path.join(copy, name));
      return copy;
    })
    .join(path.delimiter);
}

/** A machine without Chromium, PostgreSQL, PgBouncer or Redis, as far as the tests can tell. */
const bare = () => ({
  ...process.env,
  PATH: pathWithout('redis-server'),
  CHROME_PATH: path.join(scratch, 'no-chromium'),
  POSTGRES_ROOT: path.join(scratch, 'no-postgresql'),
  PGBOUNCER_PATH: path.join(scratch, 'no-pgbouncer'),
});

function runVitest(
  files: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string; seconds: number }> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [path.join(projectRoot, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...files],
    {
      cwd: projectRoot,
      env: { ...env, FORCE_COLOR: '0', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output, seconds: (performance.now() - started) / 1000 });
    }),
  );
}

describe('the programs the tests need', () => {
  it('a run of a browser file and a Redis file on a bare machine stops before any test, naming both programs in one message', async () => {
    const run = await runVitest(['tests/site/webmcp.test.ts', 'tests/rate-limit/upstash.test.ts'], bare());
    expect(run.code).toBe(1);
    expect(run.output).toContain('The tests need programs that are not installed:');
    expect(run.output).toContain(`- chromium (looked for in ${path.join(scratch, 'no-chromium')})`);
    expect(run.output).toContain('- redis-server (looked for in PATH)');
    expect(run.output).toContain(`- pgbouncer (looked for in ${path.join(scratch, 'no-pgbouncer')})`);
    expect(run.output).toMatch(/apt-get install -y chromium postgresql pgbouncer redis-server( util-linux)?\n/);
    expect(run.output.match(/not installed/g)).toHaveLength(1);
    // Stopped before any tier's setup built the fixture site and before any test file ran.
    expect(run.output).not.toMatch(/\[build\]|Test Files/);
    // Vitest's own start-up included; the check itself takes milliseconds.
    expect(run.seconds).toBeLessThan(30);
  }, 60_000);

  it('the unit tier needs none of them: on the same bare machine a unit file runs and passes', async () => {
    const run = await runVitest(['tests/unit/memoise.test.ts'], bare());
    expect(run.output).not.toContain('not installed');
    expect(run.output).toMatch(/Test Files {2}1 passed \(1\)/);
    expect(run.code).toBe(0);
  }, 60_000);

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
      'chromium',
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
      /apt-get install -y chromium postgresql pgbouncer redis-server gdal-bin python3-pandas python3-rnc2rng python3-lxml( util-linux)?\n/,
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
