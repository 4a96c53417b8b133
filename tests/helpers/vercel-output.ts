/**
 * Reading a Vercel Build Output (`.vercel/output`) as the platform would: which functions it
 * holds and how big they are, and where its routes send a request. The routing follows the
 * Build Output API v3 phases that the output uses: routes before `filesystem` (redirects, the
 * routing middleware, which lets the request through unchanged here), the filesystem (static
 * files with their overrides, and functions), then the rewrites after it, each checked against
 * the filesystem, then the `error` phase.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

interface OutputRoute {
  src?: string;
  dest?: string;
  status?: number;
  headers?: Record<string, string>;
  handle?: string;
  check?: boolean;
  continue?: boolean;
  middlewarePath?: string;
}

export interface BuildOutput {
  dir: string;
  config: { routes: OutputRoute[]; overrides?: Record<string, { path?: string; contentType?: string }> };
  /** Function names as Vercel maps them to paths: `api/departures` serves `/api/departures`. */
  functions: string[];
  staticFiles: Set<string>;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

export function readBuildOutput(projectDir: string): BuildOutput {
  const dir = path.join(projectDir, '.vercel', 'output');
  const config = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')) as BuildOutput['config'];
  const functionsDir = path.join(dir, 'functions');
  const functions = existsSync(functionsDir)
    ? readdirSync(functionsDir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isDirectory() && e.name.endsWith('.func'))
        .map((e) =>
          path
            .relative(functionsDir, path.join(e.parentPath, e.name))
            .replace(/\.func$/, '')
            .split(path.sep)
            .join('/'),
        )
        .sort()
    : [];
  const staticDir = path.join(dir, 'static');
  const staticFiles = new Set(walk(staticDir).map((f) => `/${path.relative(staticDir, f).split(path.sep).join('/')}`));
  return { dir, config, functions, staticFiles };
}

/**
 * A function's files: those written into its folder, and those it takes from the project as
 * they are (`filePathMap` of its .vc-config.json: files named by `includeFiles`, for example).
 */
function functionFileMap(output: BuildOutput, name: string, projectDir: string): Map<string, string> {
  const root = path.join(output.dir, 'functions', `${name}.func`);
  const files = new Map(walk(root).map((f) => [path.relative(root, f).split(path.sep).join('/'), f]));
  const vc = JSON.parse(readFileSync(path.join(root, '.vc-config.json'), 'utf8')) as {
    filePathMap?: Record<string, string>;
  };
  for (const [inFunction, inProject] of Object.entries(vc.filePathMap ?? {}))
    files.set(inFunction, path.join(projectDir, inProject));
  return files;
}

export function functionFiles(output: BuildOutput, name: string): string[] {
  return [...functionFileMap(output, name, path.dirname(path.dirname(output.dir))).keys()].sort();
}

/** Bytes of a function's files, as they would be uploaded. */
export function functionSize(output: BuildOutput, name: string): number {
  return [...functionFileMap(output, name, path.dirname(path.dirname(output.dir))).values()].reduce(
    (sum, file) => sum + statSync(file).size,
    0,
  );
}

export type Routed =
  | { kind: 'static'; file: string; status: number }
  | { kind: 'function'; name: string }
  | { kind: 'redirect'; location: string; status: number }
  | { kind: 'none' };

function onFilesystem(output: BuildOutput, pathname: string): Routed | null {
  const name = pathname.replace(/^\//, '');
  if (output.functions.includes(name) && name !== 'middleware') return { kind: 'function', name };
  if (output.staticFiles.has(pathname)) return { kind: 'static', file: pathname, status: 200 };
  for (const [file, override] of Object.entries(output.config.overrides ?? {})) {
    if (override.path !== undefined && `/${override.path}` === pathname)
      return { kind: 'static', file: `/${file}`, status: 200 };
  }
  return null;
}

/** Where the output's routes send a request for `pathname` (the middleware is assumed to pass it through). */
export function route(output: BuildOutput, pathname: string): Routed {
  const routes = output.config.routes;
  let phase: string | null = null;
  let current = pathname;
  for (const r of routes) {
    if (r.handle) {
      if (r.handle === 'filesystem') {
        const found = onFilesystem(output, current);
        if (found) return found;
      }
      phase = r.handle;
      continue;
    }
    if (phase === 'hit' || phase === 'error' || r.middlewarePath) continue;
    const match = r.src ? new RegExp(r.src, 'i').exec(current) : null;
    if (!match) continue;
    const fill = (text: string) => text.replace(/\$(\d+)/g, (_, n: string) => match[Number(n)] ?? '');
    if (r.status && r.headers?.Location)
      return { kind: 'redirect', location: fill(r.headers.Location), status: r.status };
    if (r.dest) {
      current = fill(r.dest).split('?')[0] ?? '';
      if (phase === 'filesystem' && r.check) {
        const found = onFilesystem(output, current);
        if (found) return found;
      }
    }
    if (!r.continue && !r.check) break;
  }
  return { kind: 'none' };
}
