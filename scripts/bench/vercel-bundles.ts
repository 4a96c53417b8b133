/**
 * Size of each Vercel function in a DEPLOY_TARGET=vercel build of the real content: files and
 * bytes under .vercel/output/functions/<name>.func, what a cold start has to load, and the
 * largest packages traced into it.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildProject, copyProject, projectRoot } from '../../tests/helpers/project.ts';
import { realContent } from '../../tests/helpers/content.ts';
import { fixed, mib, type Section } from './report.ts';

function folderSize(dir: string, seen = new Set<string>()): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (lstatSync(full).isSymbolicLink() && !existsSync(full)) continue;
    const real = realpathSync(full);
    if (seen.has(real)) continue;
    seen.add(real);
    const info = statSync(real);
    if (info.isDirectory()) {
      const inner = folderSize(real, seen);
      files += inner.files;
      bytes += inner.bytes;
    } else {
      files += 1;
      bytes += info.size;
    }
  }
  return { files, bytes };
}

/** Packages under a function's node_modules, largest first (scoped packages by scope). */
function largestPackages(func: string, count: number): string[] {
  const modules = path.join(func, 'node_modules');
  if (!existsSync(modules)) return [];
  return readdirSync(modules)
    .filter((p) => !p.startsWith('.'))
    .map((p) => ({ name: p, bytes: folderSize(path.join(modules, p)).bytes }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, count)
    .map((p) => `${p.name} ${mib(p.bytes)}`);
}

export function vercelSection(): Section {
  const copy = copyProject({ content: realContent });
  try {
    // The adapter traces dependencies into each function only from a node_modules inside the
    // project; the scratch copy's link to the shared one would leave them out. Hard links
    // give the copy its own tree without copying 600 MB.
    const modules = path.join(copy.dir, 'node_modules');
    rmSync(modules);
    if (spawnSync('cp', ['-al', path.join(projectRoot, 'node_modules'), modules]).status !== 0) cpSync(path.join(projectRoot, 'node_modules'), modules, { recursive: true });
    const started = performance.now();
    const build = buildProject(copy.dir, { DEPLOY_TARGET: 'vercel', SITE_URL: 'https://example.test' });
    const seconds = (performance.now() - started) / 1000;
    if (build.status !== 0) throw new Error(`vercel build failed:\n${build.output.slice(-3000)}`);
    const functions = path.join(copy.dir, '.vercel', 'output', 'functions');
    const names = readdirSync(functions).filter((f) => f.endsWith('.func')).sort();
    const rows = names.map((f) => {
      const { files, bytes } = folderSize(path.join(functions, f));
      return [`\`${f}\``, fixed(files), fixed(bytes), mib(bytes), largestPackages(path.join(functions, f), 4).join(', ') || '(one bundled file)'];
    });
    return {
      title: 'Vercel function bundles',
      about: `Files and bytes of each function in a \`DEPLOY_TARGET=vercel\` build of the real content (build took ${fixed(seconds, 1)} s), with the largest packages traced into it. Each file is counted once.`,
      header: ['Function', 'Files', 'Bytes', 'Size', 'Largest packages'],
      rows,
      findings: [],
    };
  } finally {
    copy.remove();
  }
}
