/**
 * What the real `vercel build` makes of the real content (tests/helpers/vercel-build.ts): each
 * function's files and bytes (its own folder and the project files it takes as they are), the
 * largest packages traced into it, the static files, and the routes.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { realContent } from '../../tests/helpers/content.ts';
import { vercelBuild } from '../../tests/helpers/vercel-build.ts';
import { functionFiles, functionSize, readBuildOutput } from '../../tests/helpers/vercel-output.ts';
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
      ],
    };
  } finally {
    built.copy.remove();
  }
}
