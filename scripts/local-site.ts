/**
 * The last build served by server.ts on a free loopback port with a data folder of its own, for
 * the scripts that look at the site as a visitor does (`npm run lighthouse`, `npm run screenshots`);
 * or a site that is already running, named by its URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const projectRoot = path.resolve(import.meta.dirname, '..');

export interface LocalSite {
  origin: string;
  stop: () => void;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}

/** Starts server.ts on the last build, with its own data folder, and waits until it answers. */
export async function serveBuild(): Promise<LocalSite> {
  if (!existsSync(path.join(projectRoot, 'dist', 'live', 'static-routes.json'))) {
    throw new Error('No build found in dist/. Run `npm run build` (or `npm start` once) first, or pass the URL of a running site.');
  }
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'local-site-data-'));
  const child: ChildProcess = spawn(process.execPath, [path.join(projectRoot, 'server.ts')], {
    cwd: projectRoot,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir },
    stdio: 'ignore',
  });
  const origin = `http://127.0.0.1:${port}`;
  const stop = () => {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  };
  // Opening the embedded database can take a while on a busy machine.
  for (let tries = 0; tries < 300; tries++) {
    if (child.exitCode !== null) break;
    const ok = await fetch(`${origin}/`).then((r) => r.ok, () => false);
    if (ok) return { origin, stop };
    await new Promise((r) => setTimeout(r, 200));
  }
  stop();
  throw new Error('server.ts did not start; try `npm run serve` to see why');
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
  const found = ['treks', 'expeditions'].map((section) => locs.find((p) => new RegExp(`^/${section}/[a-z0-9-]+$`).test(p)));
  if (!found[0] || !found[1]) throw new Error('the sitemap lists no trek or no expedition');
  return [found[0], found[1]];
}
