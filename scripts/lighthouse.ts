/**
 * `npm run lighthouse`: Lighthouse (Debian Chromium, offline) on the home page, a trek, an
 * expedition and the departures board, each as a phone (Lighthouse's mobile profile: a mid-range
 * phone on a slow 4G network) and as a desktop (its desktop preset); prints the four category
 * scores of each.
 *
 *   npm run build && npm run lighthouse            # serves dist/ on a free port and audits it
 *   npm run lighthouse -- http://127.0.0.1:4321   # audits a site that is already running
 *   npm run lighthouse -- --strict                 # exits 1 when any score is below 100
 *   npm run lighthouse -- --mobile | --desktop     # one of the two only
 *
 * CHROME_PATH picks the browser (default /usr/bin/chromium).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import * as chromeLauncher from 'chrome-launcher';

const root = path.resolve(import.meta.dirname, '..');
const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

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
async function serveBuild(): Promise<{ origin: string; stop: () => void }> {
  if (!existsSync(path.join(root, 'dist', 'live', 'static-routes.json'))) {
    throw new Error('No build found in dist/. Run `npm run build` (or `npm start` once) first, or pass the URL of a running site.');
  }
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lighthouse-data-'));
  const child: ChildProcess = spawn(process.execPath, [path.join(root, 'server.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir },
    stdio: 'ignore',
  });
  const origin = `http://127.0.0.1:${port}`;
  const stop = () => {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  };
  for (let tries = 0; tries < 150; tries++) {
    if (child.exitCode !== null) break;
    const ok = await fetch(`${origin}/`).then((r) => r.ok, () => false);
    if (ok) return { origin, stop };
    await new Promise((r) => setTimeout(r, 200));
  }
  stop();
  throw new Error('server.ts did not start; try `npm run serve` to see why');
}

/** The first trek and the first expedition listed in the sitemap, on this origin. */
async function tripPaths(origin: string): Promise<string[]> {
  const xml = await (await fetch(`${origin}/sitemap-0.xml`)).text();
  const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? '').pathname);
  const found = ['treks', 'expeditions'].map((section) => locs.find((p) => new RegExp(`^/${section}/[a-z0-9-]+$`).test(p)));
  if (found.some((p) => !p)) throw new Error('the sitemap lists no trek or no expedition');
  return found as string[];
}

const args = process.argv.slice(2);
const strict = args.includes('--strict');
const forms = (['mobile', 'desktop'] as const).filter((form) => !args.includes(`--${form === 'mobile' ? 'desktop' : 'mobile'}`));
const given = args.find((a) => /^https?:\/\//.test(a));
const site = given ? { origin: given.replace(/\/+$/, ''), stop: () => undefined } : await serveBuild();
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
let failed = false;
try {
  const pages = ['/', ...(await tripPaths(site.origin)), '/departures'];
  for (const form of forms) {
    for (const page of pages) {
      // One request first: the audit measures a warm server, not the first query of a fresh process.
      await fetch(`${site.origin}${page}`).then((r) => r.arrayBuffer());
      const started = Date.now();
      const result = await lighthouse(`${site.origin}${page}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...categories] }, form === 'desktop' ? desktopConfig : undefined);
      if (!result) throw new Error(`Lighthouse returned nothing for ${page}`);
      const scores = categories.map((c) => Math.round((result.lhr.categories[c]?.score ?? 0) * 100));
      if (scores.some((s) => s < 100)) failed = true;
      console.log(`${form.padEnd(7)} ${page}  ${categories.map((c, i) => `${c} ${scores[i]}`).join('  ')}  (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      for (const c of categories) {
        const category = result.lhr.categories[c];
        if (!category || (category.score ?? 0) >= 1) continue;
        const misses = category.auditRefs
          .map((ref) => result.lhr.audits[ref.id])
          .filter((audit) => audit && audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== 'informative' && audit.scoreDisplayMode !== 'manual');
        for (const audit of misses) console.log(`    ${c}: ${audit?.id} (${audit?.displayValue ?? audit?.score})`);
      }
    }
  }
} finally {
  chrome.kill();
  site.stop();
}
if (strict && failed) process.exit(1);
