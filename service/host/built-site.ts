/**
 * What a build leaves for the Node host, as one value: the route table (vercel.json and the
 * build's own routes), the built files, the functions of api/, and where each path goes,
 * worked out once per path (the files and functions are fixed for as long as the value is used).
 */
import path from 'node:path';
import { cachePolicy } from '../http/cache-policy.ts';
import { memoise } from '../http/bounded-memo.ts';
import { FunctionHost } from './functions.ts';
import { applyEarlyRoutes, fileHeaders, loadRouteTable, resolve, type Destination, type EarlyOutcome, type RouteTable } from './router.ts';
import { StaticFiles } from './static-files.ts';

export interface BuiltSite {
  table: RouteTable;
  files: StaticFiles;
  functions: FunctionHost;
  /** What the early routes say about a path (router.ts, step 1 and 2). */
  earlyRoutes(pathname: string): EarlyOutcome;
  /** Where a path goes once the rules have let it through, with the build's headers for a file. */
  destinationOf(pathname: string): Destination & { headers?: Record<string, string> };
}

/** The build in `root` (dist/site, dist/live, api/, vercel.json). */
export function loadBuiltSite(root: string): BuiltSite {
  const table = loadRouteTable(root);
  const files = new StaticFiles(path.join(root, 'dist', 'site'));
  const functions = new FunctionHost(path.join(root, 'api'));
  const fs = { hasFile: (p: string) => files.has(p), functionAt: (p: string) => functions.functionAt(p) };
  return {
    table,
    files,
    functions,
    earlyRoutes: memoise((pathname: string) => applyEarlyRoutes(table, pathname)),
    destinationOf: memoise((pathname: string) => {
      const destination = resolve(table, fs, pathname);
      if (destination.kind !== 'file') return destination;
      // A not-found answer is never kept (cache-policy.ts), whatever the file's own policy.
      return { ...destination, headers: { ...fileHeaders(table, destination.pathname), ...(destination.status === 404 ? { 'Cache-Control': cachePolicy.never } : {}) } };
    }),
  };
}
