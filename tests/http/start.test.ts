/**
 * `npm start` on a fresh copy: builds because nothing is built yet, serves site and API on the
 * port it is given, and skips the build the second time; a second one on a port in use says so
 * in one line.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureContent } from '../helpers/content.ts';
import { copyProject, freePort } from '../helpers/project.ts';
import { eventually, whileRunning } from '../helpers/eventually.ts';

const copy = copyProject({ content: fixtureContent });
const dataDir = mkdtempSync(path.join(tmpdir(), 'catalogue-start-'));
afterAll(() => {
  copy.remove();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(port: number): Promise<{ output: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [path.join(copy.dir, 'scripts', 'start.ts')], {
    cwd: copy.dir,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, ASTRO_TELEMETRY_DISABLED: '1', SITE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  await eventually(async () => expect(output, 'npm start did not serve').toContain('Serving the site and API'), {
    withinMs: 150_000,
    everyMs: 200,
    unless: whileRunning(child, () => `npm start exited:\n${output}`),
  });
  return {
    output,
    stop: async () => {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
    },
  };
}

describe('npm start', () => {
  it(
    'builds when needed and serves HTML and the API on PORT, with URLs for that port',
    { timeout: 240_000 },
    async () => {
      const port = await freePort();
      const first = await start(port);
      try {
        expect(first.output).toContain('Building the site');
        const home = await fetch(`http://127.0.0.1:${port}/`);
        expect(home.status).toBe(200);
        expect(home.headers.get('content-type')).toContain('text/html');
        const index = await fetch(`http://127.0.0.1:${port}/v1/`);
        expect(index.status).toBe(200);
        expect((await index.json()).baseUrl).toBe(`http://localhost:${port}/v1`);
      } finally {
        await first.stop();
      }
      const second = await start(port);
      try {
        expect(second.output).not.toContain('Building the site');
        expect((await fetch(`http://127.0.0.1:${port}/v1/trips`)).status).toBe(200);
        // A second npm start in the same folder, on the same port, says so in one line, and the first keeps serving.
        const clash = spawnSync(process.execPath, [path.join(copy.dir, 'scripts', 'start.ts')], {
          cwd: copy.dir,
          env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, ASTRO_TELEMETRY_DISABLED: '1', SITE_URL: '' },
          encoding: 'utf8',
          timeout: 120_000,
        });
        expect(clash.status).toBe(1);
        expect(clash.stderr.trim()).toBe(
          `Cannot listen on 127.0.0.1:${port} (EADDRINUSE): another program is listening there: stop it, or set PORT to a free port.`,
        );
        expect((await fetch(`http://127.0.0.1:${port}/v1/trips`)).status).toBe(200);
      } finally {
        await second.stop();
      }
    },
  );
});
