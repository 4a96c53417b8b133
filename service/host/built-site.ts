/**
 * One build of the site as the Node host serves it, as one value: its route table (vercel.json
 * and the build's own routes), its built files (and the compressed copies the build made), its
 * live functions (made for it), the function answers kept from it, and where each path goes,
 * worked out once per path (a build's files never change once it is published: site-builds.ts
 * takes up the next one whole). As a SiteBuild it is what its functions read: the catalogue made
 * from the content it was built from, its page frames and its MCP App views
 * (service/functions/site-build.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { LiveInstance } from '../functions/runtime.ts';
import { kept } from '../functions/runtime.ts';
import { checkedFrame, type SiteBuild } from '../functions/site-build.ts';
import type { LiveShellName } from '../live-shells.ts';
import { builtViews } from '../functions/built-views.ts';
import { catalogueFromContent } from './build-catalogue.ts';
import { cachePolicy } from '../http/cache-policy.ts';
import { memoise } from '../http/bounded-memo.ts';
import { EdgeCache } from './edge-cache.ts';
import { FunctionHost, type FunctionEntries } from './functions.ts';
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

/** A page frame of the build in `liveDir`, read when first asked for. */
function frameReader(liveDir: string): (name: LiveShellName) => string {
  const frames = new Map<LiveShellName, string>();
  return (name) => {
    let text = frames.get(name);
    if (text === undefined) {
      const file = path.join(liveDir, 'shells', `${name}.html`);
      try {
        text = checkedFrame(readFileSync(file, 'utf8'), file);
      } catch (error) {
        throw new Error(
          `the page frame ${file} cannot be used; it is made by the site build (npm run build): ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }
      frames.set(name, text);
    }
    return text;
  };
}

/**
 * The build in `dir` (its site/ and live/ folders), served with the project's vercel.json and the
 * functions of functions/ on `instance`. `id` is the published build's name, or null for a build
 * served as it lies in dist/ (made for Vercel, or before builds were published); a published build
 * reads its own content, any other the content the settings name.
 */
export function openBuiltSite(
  root: string,
  dir: string,
  id: string | null,
  entries: FunctionEntries,
  instance: LiveInstance,
): BuiltSite {
  const liveDir = path.join(dir, 'live');
  const contentDir = id ? path.join(dir, 'content') : undefined;
  const build: SiteBuild = {
    id,
    catalogue: kept(() => {
      const settings = instance.settings();
      return catalogueFromContent(contentDir ?? path.resolve(settings.CONTENT_DIR), settings);
    }),
    frame: frameReader(liveDir),
    views: builtViews(liveDir),
  };
  const functions = new FunctionHost(entries, build, instance);
  const table = loadRouteTable(root, liveDir);
  const files = new StaticFiles(path.join(dir, 'site'), path.join(dir, 'compressed'));
  const fs = { hasFile: (p: string) => files.has(p), functionAt: (p: string) => functions.functionAt(p) };
  // Every answer made from a published build names it, for operators and for checks (the functions' answers too: live-function.ts).
  const named: Record<string, string> = id ? { 'X-Build': id } : {};
  return {
    ...build,
    dir,
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
