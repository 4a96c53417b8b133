/**
 * One build of the site as the Node host serves it, as one value: its route table (vercel.json
 * and the build's own routes), its built files (and the compressed copies the build made), the functions of
 * api/, the function answers kept from it, and where each path goes, worked out once per path
 * (a build's files never change once it is published: site-builds.ts takes up the next one whole).
 * As a SiteBuild it also names what the live functions read from it: its page frames and the
 * content its catalogue is made of (service/functions/site-build.ts).
 */
import path from 'node:path';
import type { SiteBuild } from '../functions/site-build.ts';
import { cachePolicy } from '../http/cache-policy.ts';
import { memoise } from '../http/bounded-memo.ts';
import { EdgeCache } from './edge-cache.ts';
import type { FunctionHost } from './functions.ts';
import {
  applyEarlyRoutes,
  fileHeaders,
  loadRouteTable,
  resolve,
  type Destination,
  type EarlyOutcome,
  type RouteTable,
} from './router.ts';
import { StaticFiles } from './static-files.ts';

export interface BuiltSite extends SiteBuild {
  /** The build's folder (site/, live/, compressed/ and, when published, content/ and build.json). */
  dir: string;
  table: RouteTable;
  files: StaticFiles;
  functions: FunctionHost;
  /** Function answers a shared cache may keep, kept here as Vercel's CDN keeps them. */
  edge: EdgeCache;
  /** What the early routes say about a path (router.ts, step 1 and 2). */
  earlyRoutes(pathname: string): EarlyOutcome;
  /** Where a path goes once the rules have let it through, with the build's headers for a file. */
  destinationOf(pathname: string): Destination & { headers?: Readonly<Record<string, string>> };
}

/**
 * The build in `dir` (its site/ and live/ folders), served with the project's vercel.json and the
 * functions of api/. `id` is the published build's name, or null for a build served as it lies in
 * dist/ (made for Vercel, or before builds were published); a published build reads its own content.
 */
export function openBuiltSite(root: string, dir: string, id: string | null, functions: FunctionHost): BuiltSite {
  const liveDir = path.join(dir, 'live');
  const table = loadRouteTable(root, liveDir);
  const files = new StaticFiles(path.join(dir, 'site'), path.join(dir, 'compressed'));
  const fs = { hasFile: (p: string) => files.has(p), functionAt: (p: string) => functions.functionAt(p) };
  // Every answer made from a published build names it, for operators and for checks (the functions' answers too: live-function.ts).
  const named: Record<string, string> = id ? { 'X-Build': id } : {};
  return {
    id,
    dir,
    liveDir,
    contentDir: id ? path.join(dir, 'content') : undefined,
    table,
    files,
    functions,
    edge: new EdgeCache(),
    earlyRoutes: memoise((pathname: string) => applyEarlyRoutes(table, pathname)),
    destinationOf: memoise((pathname: string) => {
      const destination = resolve(table, fs, pathname);
      if (destination.kind !== 'file') return destination;
      // A not-found answer is never kept (cache-policy.ts), whatever the file's own policy. The
      // headers are the same for every request to the path: shared, so frozen.
      return {
        ...destination,
        headers: Object.freeze({
          ...fileHeaders(table, destination.pathname),
          ...(destination.status === 404 ? { 'Cache-Control': cachePolicy.never } : {}),
          ...named,
        }),
      };
    }),
  };
}
