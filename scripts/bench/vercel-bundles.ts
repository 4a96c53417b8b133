/**
 * What the real `vercel build` makes of the real content (tests/helpers/vercel-build.ts): each
 * function's files and bytes (its own folder and the project files it takes as they are), the
 * largest packages traced into it, the static files, and the routes.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { realContent } from '../../tests/helpers/content.ts';
import { vercelBuild } from '../../tests/helpers/vercel-build.ts';
import { functionFiles, functionSize, readBuildOutput, type BuildOutput } from '../../tests/helpers/vercel-output.ts';
import { fixed, mib, type Section } from './report.ts';

function folderBytes(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + statSync(path.join(e.parentPath, e.name)).size, 0);
}

/** Packages under a function's node_modules, largest first (scoped packages by scope). */
function largestPackages(func: string, count: number): string[] {
  const modules = path.join(func, 'node_modules');
  if (!existsSync(modules)) return [];
  return readdirSync(modules)
    .filter((p) => !p.startsWith('.'))
    .map((p) => ({ name: p, bytes: folderBytes(path.join(modules, p)) }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, count)
    .map((p) => `${p.name} ${mib(p.bytes)}`);
}

/**
 * Milliseconds a fresh Node.js process takes to import a built function's handler (the
 * middleware's cold start before its first request), the median of `runs` processes.
 */
export function importMs(output: BuildOutput, name: string, runs = 9): number {
  const func = path.join(output.dir, 'functions', `${name}.func`);
  const { handler } = JSON.parse(readFileSync(path.join(func, '.vc-config.json'), 'utf8')) as { handler: string };
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(path.join(func, handler)).href)}); console.log(performance.now() - t);`;
  const times = Array.from({ length: runs }, () => {
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: func,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
    });
    if (run.status !== 0) throw new Error(`importing ${name} failed: ${run.stderr}`);
    return Number(run.stdout.trim());
  }).sort((a, b) => a - b);
  return times[Math.floor(runs / 2)]!;
}

export function vercelSection(): Section {
  const built = vercelBuild(realContent);
  try {
    if (built.status !== 0) throw new Error(`vercel build failed:\n${built.output.slice(-3000)}`);
    const output = readBuildOutput(built.copy.dir);
    const rows = output.functions.map((name) => [
      `\`${name}\``,
      fixed(functionFiles(output, name).length),
      mib(functionSize(output, name)),
      largestPackages(path.join(output.dir, 'functions', `${name}.func`), 3).join(', ') || '(one bundled file)',
    ]);
    const staticBytes = folderBytes(path.join(output.dir, 'static'));
    const middlewareRoutes = output.config.routes.filter((r) => r.middlewarePath).length;
    return {
      title: 'Vercel Build Output',
      about: `The real \`vercel build\` (CLI 60) of the real content, offline (took ${fixed(built.seconds, 0)} s): each function with the files it carries, its own and those it takes from the project as they are (\`filePathMap\`: the content it reads).`,
      header: ['Function', 'Files', 'Size', 'Largest packages'],
      rows,
      findings: [
        `${output.functions.filter((f) => f !== 'middleware').length} functions and the routing middleware (${middlewareRoutes} middleware route); ${fixed(output.staticFiles.size)} static files, ${mib(staticBytes)}.`,
        `Largest function: ${mib(Math.max(...output.functions.map((f) => functionSize(output, f))))}.`,
        `Routing middleware: ${mib(functionSize(output, 'middleware'))}, imported by Node.js ${process.versions.node} in ${fixed(importMs(output, 'middleware'), 0)} ms (median of 9 fresh processes).`,
      ],
    };
  } finally {
    built.copy.remove();
  }
}
