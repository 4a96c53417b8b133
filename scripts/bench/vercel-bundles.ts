/**
 * What the real `vercel build` makes of the real content (tests/helpers/vercel-build.ts): each
 * function's files and bytes (its own folder and the project files it takes as they are), the
 * largest packages in it, the static files and the routes; and how fast each function starts
 * (cold-start.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { realContent } from '../../tests/helpers/content.ts';
import { vercelBuild, type VercelBuild } from '../../tests/helpers/vercel-build.ts';
import { functionFiles, functionSize, readBuildOutput, type BuildOutput } from '../../tests/helpers/vercel-output.ts';
import type { FunctionBundle } from '../vercel/function-bundles.ts';
import { coldStartSection, measureColdStarts, type FirstRequest } from './cold-start.ts';
import { fixed, mib, type Section } from './report.ts';

function folderBytes(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + statSync(path.join(e.parentPath, e.name)).size, 0);
}

/**
 * The largest packages a function carries: those of its bundle (the build's report,
 * scripts/vercel/function-bundles.ts), or else those under its node_modules (scoped packages by scope).
 */
function largestPackages(output: BuildOutput, name: string, count: number): string[] {
  const report = path.join(output.dir, '..', 'function-bundles.json');
  const bundled = existsSync(report)
    ? (JSON.parse(readFileSync(report, 'utf8')) as FunctionBundle[]).find((b) => b.name === name)
    : undefined;
  const modules = path.join(output.dir, 'functions', `${name}.func`, 'node_modules');
  const sizes = bundled
    ? Object.entries(bundled.packages).map(([p, bytes]) => ({ name: p, bytes }))
    : existsSync(modules)
      ? readdirSync(modules)
          .filter((p) => !p.startsWith('.'))
          .map((p) => ({ name: p, bytes: folderBytes(path.join(modules, p)) }))
      : [];
  return sizes
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, count)
    .map((p) => `${p.name} ${mib(p.bytes)}`);
}

/**
 * Milliseconds a fresh Node.js process takes to import a built function's handler (the
 * middleware's cold start before its first request), the median of `runs` processes.
 */
function importMs(output: BuildOutput, name: string, runs = 9): number {
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

/** The real `vercel build` of the real content, in a copy of the project (removed by its caller). */
export function buildForVercel(): VercelBuild {
  const built = vercelBuild(realContent);
  if (built.status !== 0) {
    built.copy.remove();
    throw new Error(`vercel build failed:\n${built.output.slice(-3000)}`);
  }
  return built;
}

export function vercelSection(built: VercelBuild): Section {
  {
    const output = readBuildOutput(built.copy.dir);
    const rows = output.functions.map((name) => [
      `\`${name}\``,
      fixed(functionFiles(output, name).length),
      mib(functionSize(output, name)),
      largestPackages(output, name, 3).join(', ') || '(no package)',
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
  }
}

/** The request each function answers first in the cold-start table: one of its own, that needs no storage. */
const firstRequests: Record<string, FirstRequest> = {
  'api/catalogue': { path: '/v1/trips?type=trek' },
  'api/departures': { path: '/treks/hampta-pass-trek.md' },
  // Checked in full, then refused for storage alone (503): storage is off.
  'api/bookings': {
    method: 'POST',
    path: '/api/bookings',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ tripSlug: 'hampta-pass-trek', name: 'Asha Rao', phone: '+91 98765 43210', groupSize: 2 }),
  },
  'api/agent-auth': { path: '/.well-known/oauth-authorization-server' },
  'api/mcp': {
    method: 'POST',
    path: '/mcp',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    }),
  },
};

/** The cold-start table of the same Build Output. */
export async function coldStarts(built: VercelBuild, samples: number): Promise<Section> {
  const output = readBuildOutput(built.copy.dir);
  const loadBefore = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
  const origin = 'https://example.test';
  const starts = await measureColdStarts(output, firstRequests, {
    samples,
    origin,
    env: { SITE_URL: origin, OPERATIONAL_STORAGE: 'off' },
  });
  return coldStartSection(output, starts, { samples, goalMs: 100, loadBefore });
}
