/**
 * The real `vercel build` (the `vercel` CLI from npm) on a scratch copy of the project, offline:
 * the copy is linked to a local project (what `vercel link` leaves behind), its dependencies are
 * hard links to this project's (a real folder, as an install leaves it, which function tracing
 * needs), and `vercel build` is told they are installed already. The build caches in
 * `node_modules` are not linked (`buildCaches`): the copy's start empty, as on a first deploy,
 * and other tests' builds, which write theirs there meanwhile (a file written under a passing
 * name, then renamed or removed), are never walked halfway.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildCaches, copyProject, projectRoot, type ProjectCopy } from './project.ts';
import { onProjectDisk } from './run-folder-in-memory.ts';

export interface VercelBuild {
  copy: ProjectCopy;
  status: number;
  output: string;
  seconds: number;
}

export function vercelBuild(content: string, env: Record<string, string> = {}): VercelBuild {
  const modules = path.join(projectRoot, 'node_modules');
  // Hard links need the copy on the same filesystem as node_modules.
  const copy = copyProject({ content, parent: onProjectDisk(modules) });
  mkdirSync(path.join(copy.dir, '.vercel'), { recursive: true });
  writeFileSync(
    path.join(copy.dir, '.vercel', 'project.json'),
    JSON.stringify({
      projectId: 'prj_local',
      orgId: 'team_local',
      settings: { framework: 'astro', nodeVersion: '24.x' },
    }),
  );
  const config = JSON.parse(readFileSync(path.join(copy.dir, 'vercel.json'), 'utf8'));
  writeFileSync(path.join(copy.dir, 'vercel.json'), JSON.stringify({ ...config, installCommand: '' }));
  rmSync(path.join(copy.dir, 'node_modules'));
  mkdirSync(path.join(copy.dir, 'node_modules'));
  const entries = readdirSync(modules)
    .filter((name) => !buildCaches.has(name))
    .map((name) => path.join(modules, name));
  const linked = spawnSync('cp', ['-al', ...entries, path.join(copy.dir, 'node_modules')]);
  if (linked.status !== 0) throw new Error(`could not link node_modules: ${String(linked.stderr)}`);
  const bin = path.join(projectRoot, 'node_modules', '.bin');
  const started = performance.now();
  const result = spawnSync(
    process.execPath,
    [path.join(projectRoot, 'node_modules', 'vercel', 'dist', 'vc.js'), 'build', '--yes'],
    {
      cwd: copy.dir,
      env: {
        ...process.env,
        PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
        SITE_URL: 'https://example.test',
        ASTRO_TELEMETRY_DISABLED: '1',
        VERCEL_TELEMETRY_DISABLED: '1',
        NO_UPDATE_NOTIFIER: '1',
        VERCEL_INSTALL_COMPLETED: '1',
        CI: '1',
        ...env,
      },
      encoding: 'utf8',
      timeout: 280_000,
    },
  );
  return {
    copy,
    status: result.status ?? 1,
    output: `${result.stdout}\n${result.stderr}`,
    seconds: (performance.now() - started) / 1000,
  };
}
