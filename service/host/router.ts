/**
 * The Node host's router: the same route table as the Vercel deployment, evaluated in the same
 * order, so both hosts route a request alike by construction.
 *
 *   1. the build's early routes (live/static-routes.json, the same list the Build Output
 *      config carries): the guard that keeps the clean-URL redirects on the site;
 *   2. vercel.json's routes before the filesystem (clean-URL redirects);
 *   3. the request rules (server.ts runs them here, where Vercel runs the routing middleware);
 *   4. the filesystem: a built file (with the headers the build gave it), or a function at
 *      /api/<name>;
 *   5. vercel.json's rewrites, each checked against the filesystem again;
 *   6. not found: the Markdown note for .md paths, the HTML page otherwise.
 *
 * vercel.json is compiled by @vercel/routing-utils, the library Vercel itself uses for it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getTransformedRoutes } from '@vercel/routing-utils';
import type { Route, StaticRoutes } from './static-routes.ts';

interface CompiledRoute extends Route {
  pattern: RegExp;
}

export interface RouteTable {
  early: CompiledRoute[];
  hit: CompiledRoute[];
  /** The `hit` routes that name one file exactly, by path: looked up, not matched one by one. */
  hitExact: Map<string, Record<string, string>>;
  rewrites: CompiledRoute[];
  notFound: CompiledRoute[];
}

/** The one path a header route's `src` names (`^/a\\.md$` → `/a.md`), or null for a real pattern. */
function exactPath(route: Route): string | null {
  const match =
    route.src && route.continue && !route.dest && !route.status
      ? /^\^((?:[^\\.*+?^${}()|[\]]|\\.)*)\$$/.exec(route.src)
      : null;
  return match ? match[1]!.replace(/\\(.)/g, '$1') : null;
}

function compile(routes: readonly Route[]): CompiledRoute[] {
  // Vercel matches route sources without regard to case unless told otherwise.
  return routes.flatMap((route) => (route.src ? [{ ...route, pattern: new RegExp(route.src, 'i') }] : []));
}

/** The route table of a build: the project's vercel.json plus the routes in the build's `live/` folder. */
export function loadRouteTable(root: string, liveDir = path.join(root, 'dist', 'live')): RouteTable {
  const vercel = JSON.parse(readFileSync(path.join(root, 'vercel.json'), 'utf8')) as Parameters<
    typeof getTransformedRoutes
  >[0];
  const built = JSON.parse(readFileSync(path.join(liveDir, 'static-routes.json'), 'utf8')) as StaticRoutes;
  const transformed = getTransformedRoutes(vercel);
  if (transformed.error) throw new Error(`vercel.json: ${transformed.error.message}`);
  const routes = (transformed.routes ?? []) as Route[];
  const filesystem = routes.findIndex((r) => r.handle === 'filesystem');
  return {
    early: compile([...built.early, ...routes.slice(0, filesystem)]),
    hit: compile(built.hit.filter((r) => exactPath(r) === null)),
    hitExact: new Map(
      built.hit.flatMap((r) => (exactPath(r) !== null && r.headers ? [[exactPath(r)!, r.headers] as const] : [])),
    ),
    rewrites: compile(routes.slice(filesystem + 1).filter((r) => !r.handle)),
    notFound: compile(built.notFound),
  };
}

/** What the early routes say about a path: headers to add, or a redirect to answer with. */
export interface EarlyOutcome {
  headers: Record<string, string>;
  redirect?: { status: number; location: string };
}

function substitute(template: string, match: RegExpExecArray): string {
  return template.replace(/\$(\d+)/g, (_, n: string) => match[Number(n)] ?? '');
}

export function applyEarlyRoutes(table: RouteTable, pathname: string): EarlyOutcome {
  return applyHeaderRoutes(table.early, pathname);
}

/** The headers the build gave the file at `pathname`. */
export function fileHeaders(table: RouteTable, pathname: string): Record<string, string> {
  const exact = table.hitExact.get(pathname);
  const matched = table.hit.length > 0 ? applyHeaderRoutes(table.hit, pathname).headers : {};
  return exact ? { ...matched, ...exact } : matched;
}

function applyHeaderRoutes(routes: readonly CompiledRoute[], pathname: string): EarlyOutcome {
  const headers: Record<string, string> = {};
  // A `continue` route with a `dest` changes the path the routes after it match, as on Vercel.
  // Among these routes only the build's redirect guard has one, and every path it rewrites is
  // redirected by the next routes, so the rewritten path never goes further than this list.
  let path = pathname;
  for (const route of routes) {
    const match = route.pattern.exec(path);
    if (!match) continue;
    const values = Object.fromEntries(Object.entries(route.headers ?? {}).map(([k, v]) => [k, substitute(v, match)]));
    if (route.status && values.Location)
      return { headers, redirect: { status: route.status, location: values.Location } };
    Object.assign(headers, values);
    if (route.dest) path = substitute(route.dest, match);
    if (!route.continue) break;
  }
  return { headers };
}

export interface Filesystem {
  /** True when a built file answers this path (clean URLs included). */
  hasFile(pathname: string): boolean;
  /** The function a path names (`/api/<name>`), or null. */
  functionAt(pathname: string): string | null;
}

export type Destination =
  { kind: 'file'; pathname: string; status: 200 | 404 } | { kind: 'function'; name: string } | { kind: 'nothing' };

function onFilesystem(fs: Filesystem, pathname: string): Destination | null {
  const fn = fs.functionAt(pathname);
  if (fn) return { kind: 'function', name: fn };
  return fs.hasFile(pathname) ? { kind: 'file', pathname, status: 200 } : null;
}

/** Where a path goes once the rules have let it through: steps 4 to 6 above. */
export function resolve(table: RouteTable, fs: Filesystem, pathname: string): Destination {
  const found = onFilesystem(fs, pathname);
  if (found) return found;
  for (const route of table.rewrites) {
    const match = route.pattern.exec(pathname);
    if (!match || !route.dest) continue;
    const target = substitute(route.dest, match).split('?')[0] ?? '';
    const rewritten = onFilesystem(fs, target);
    if (rewritten || !route.check) return rewritten ?? { kind: 'nothing' };
  }
  for (const route of table.notFound) {
    if (route.pattern.test(pathname) && route.dest && fs.hasFile(route.dest))
      return { kind: 'file', pathname: route.dest, status: 404 };
  }
  return { kind: 'nothing' };
}
