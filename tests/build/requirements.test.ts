/**
 * The suite says what it needs, tier by tier: a run whose tiers start a program this machine
 * lacks stops before any test with one message naming every such program and the command that
 * installs them; the unit tier starts none and never looks. Shown by running the real Vitest as a
 * child process (so here, not in the unit tier) with a PATH that has no redis-server, and a
 * CHROME_PATH, POSTGRES_ROOT and PGBOUNCER_PATH that lead nowhere. The lists themselves are
 * checked in tests/architecture/requirements.test.ts.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { projectRoot } from '../helpers/project.ts';

// Two runs of Vitest from its start: seconds each, many more on a busy machine.
vi.setConfig({ testTimeout: 180_000 });

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

function runVitest(files: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
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
  // Ended with the test, should it time out.
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}

describe('the programs the tests need, on a machine without them', () => {
  it('a run of a browser file and a Redis file on a bare machine stops before any test, naming both programs in one message', async () => {
    const run = await runVitest(['tests/site/webmcp.test.ts', 'tests/rate-limit/upstash.test.ts'], bare());
    expect(run.code).toBe(1);
    expect(run.output).toContain('The tests need programs that are not installed:');
    expect(run.output).toContain(`- chromium-headless-shell (looked for in ${path.join(scratch, 'no-chromium')})`);
    expect(run.output).toContain('- redis-server (looked for in PATH)');
    expect(run.output).toContain(`- pgbouncer (looked for in ${path.join(scratch, 'no-pgbouncer')})`);
    expect(run.output).toMatch(
      /apt-get install -y chromium-headless-shell postgresql pgbouncer redis-server( util-linux)?\n/,
    );
    expect(run.output.match(/not installed/g)).toHaveLength(1);
    // Stopped before any tier's setup built the fixture site and before any test file ran.
    expect(run.output).not.toMatch(/\[build\]|Test Files/);
  });

  it('the unit tier needs none of them: on the same bare machine a unit file runs and passes', async () => {
    const run = await runVitest(['tests/unit/memoise.test.ts'], bare());
    expect(run.output).not.toContain('not installed');
    expect(run.output).toMatch(/Test Files {2}1 passed \(1\)/);
    expect(run.code).toBe(0);
  });
});
