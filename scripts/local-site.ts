/**
 * The last build served by server.ts on a free loopback port with a data folder of its own, for
 * the scripts that look at the site as a visitor does (`npm run lighthouse`, `npm run screenshots`);
 * or a site that is already running, named by its URL.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startChildServer } from './bench/processes.ts';

export const projectRoot = path.resolve(import.meta.dirname, '..');

export interface LocalSite {
  origin: string;
  stop: () => Promise<void> | void;
}

/** Starts server.ts on the last build, with its own data folder, and waits until it answers. */
export async function serveBuild(): Promise<LocalSite> {
  if (!existsSync(path.join(projectRoot, 'dist', 'live', 'static-routes.json'))) {
    throw new Error(
      'No build found in dist/. Run `npm run build` (or `npm start` once) first, or pass the URL of a running site.',
    );
  }
  const server = await startChildServer(path.join(projectRoot, 'server.ts'), { cwd: projectRoot, readyPath: '/' });
  return { origin: server.url, stop: () => server.stop() };
}

/** The site named by a URL argument, or the last build served locally. */
export async function siteFromArgs(args: string[]): Promise<LocalSite> {
  const given = args.find((a) => /^https?:\/\//.test(a));
  return given ? { origin: given.replace(/\/+$/, ''), stop: () => undefined } : serveBuild();
}

/** The first trek and the first expedition listed in the sitemap, on this origin. */
export async function tripPaths(origin: string): Promise<[trek: string, expedition: string]> {
  const xml = await (await fetch(`${origin}/sitemap-0.xml`)).text();
  const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? '').pathname);
  const found = ['treks', 'expeditions'].map((section) =>
    locs.find((p) => new RegExp(`^/${section}/[a-z0-9-]+$`).test(p)),
  );
  if (!found[0] || !found[1]) throw new Error('the sitemap lists no trek or no expedition');
  return [found[0], found[1]];
}
