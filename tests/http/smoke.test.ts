/**
 * `npm run smoke`, as an operator runs it after a deploy, against the Node host: every row of
 * the request table passes, and the report is the PASS/FAIL table it promises.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { projectRoot, startServer, type RunningServer } from '../helpers/project.ts';

let server: RunningServer;
let run: { status: number | null; stdout: string; stderr: string };

beforeAll(async () => {
  server = await startServer(inject('fixtureSite'));
  run = spawnSync(process.execPath, [path.join(projectRoot, 'scripts', 'smoke.ts'), '--url', server.url], {
    encoding: 'utf8',
    timeout: 120_000,
  });
}, 150_000);
afterAll(() => server?.stop());

it('passes every check against the Node host and says so in a table', () => {
  expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
  const lines = run.stdout.split('\n');
  const rows = lines.filter((l) => /^(PASS|FAIL) {2}/.test(l));
  expect(rows.length).toBeGreaterThan(60);
  expect(
    rows.every((l) => l.startsWith('PASS')),
    run.stdout,
  ).toBe(true);
  expect(lines).toContain(`${rows.length} passed, 0 failed`);
  expect(run.stdout).toMatch(/^PASS {2}GET \/v1\/trips +\/v1 request 121 in a window$/m);
  // The ids an earlier release of the dataset had (one removed, one moved) and that release's file.
  expect(run.stdout).toMatch(/^PASS {2}GET \/v1\/peaks\/retired-peak +\/v1 peak id of release 2\.0\.0$/m);
  expect(run.stdout).toMatch(/^PASS {2}GET \/v1\/peaks\/renamed-peak +\/v1 peak id of release 2\.0\.0$/m);
  expect(run.stdout).toMatch(/^PASS {2}GET \/peak-data\/2\.0\.0\/peaks\.json +peak dataset 2\.0\.0$/m);
});

it('fails, with the reason, against something that is not the site', async () => {
  const wrong = spawnSync(
    process.execPath,
    [path.join(projectRoot, 'scripts', 'smoke.ts'), '--url', 'http://127.0.0.1:9'],
    { encoding: 'utf8', timeout: 30_000 },
  );
  expect(wrong.status).toBe(1);
  expect(wrong.stderr).toMatch(/could not run/);
});
