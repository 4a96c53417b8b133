/**
 * The suite says what it needs: on a machine without one of the outside programs the tests
 * start, `npm test` stops before any test with one message naming it and the command that
 * installs it. Shown by running the real Vitest with a PATH that has no redis-server.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/project.ts';
import { debianPackages, missingRequirementsMessage, requirements } from '../helpers/requirements.ts';

const scratch = mkdtempSync(path.join(tmpdir(), 'requirements-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** This machine's PATH with redis-server taken out: each folder that holds it is replaced by a copy of its links without it. */
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

function runVitest(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string; seconds: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(projectRoot, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'tests/unit/memoise.test.ts'], {
    cwd: projectRoot,
    env: { ...env, FORCE_COLOR: '0', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
  it('are all on this machine', () => {
    expect(missingRequirementsMessage()).toBeNull();
  });

  it('without redis-server on the PATH, Vitest stops before any test with one message naming it and its install command', async () => {
    const withoutRedis = pathWithout('redis-server');
    expect(missingRequirementsMessage({ env: { ...process.env, PATH: withoutRedis } })).toContain('redis-server');
    const run = await runVitest({ ...process.env, PATH: withoutRedis });
    expect(run.code).toBe(1);
    expect(run.output).toContain('The tests need a program that is not installed:');
    expect(run.output).toContain('- redis-server (looked for in PATH)');
    expect(run.output).toContain('apt-get install -y redis-server');
    expect(run.output.match(/not installed/g)).toHaveLength(1);
    // Stopped before global setup built the fixture site and before any test file ran.
    expect(run.output).not.toMatch(/\[build\]|Test Files/);
    // Vitest's own start-up included; the check itself takes milliseconds.
    expect(run.seconds).toBeLessThan(30);
  }, 60_000);

  it('name every program missing on a bare machine in one install command', () => {
    const message = missingRequirementsMessage({ env: { PATH: path.join(scratch, 'empty'), CHROME_PATH: path.join(scratch, 'no-chromium') }, postgresRoot: path.join(scratch, 'no-postgresql') });
    for (const program of ['chromium', 'initdb', 'pg_ctl', 'postgres', 'redis-server']) expect(message).toContain(`- ${program} (`);
    expect(message).toMatch(/apt-get install -y chromium postgresql redis-server( util-linux)?\n/);
  });

  it('are the Debian packages .ci/run installs', () => {
    const ci = readFileSync(path.join(projectRoot, '.ci', 'run'), 'utf8');
    const listed = /^packages=\(([^)]*)\)/m.exec(ci)?.[1]?.trim().split(/\s+/);
    // util-linux (runuser) is part of every Debian system, so CI never needs to install it.
    expect(listed).toEqual(debianPackages(requirements()).filter((p) => p !== 'util-linux'));
  });
});
