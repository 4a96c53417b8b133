// @ts-check
/**
 * Astro integration that finishes the build for both hosts once Astro has written the site to
 * `dist/site/`:
 *   - moves the live pages' frames out of the published site into `dist/live/shells/`, where
 *     the live functions read them (service/functions/page-shell.ts);
 *   - writes `dist/live/static-routes.json`, the headers the built files need
 *     (service/host/static-routes.ts), which the Node host applies;
 *   - removes the generated pictures no build has used for a month from the picture cache
 *     (src/lib/picture-cache.ts);
 *   - with DEPLOY_TARGET=vercel, writes the Vercel Build Output (`.vercel/output`): the static
 *     files with clean URLs and the same routes. `vercel build` then adds the functions in
 *     `api/`, the rewrites of vercel.json and the routing middleware (middleware.ts).
 */
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { liveShellDir, liveShells } from '../service/live-shells.ts';
import { buildStaticRoutes } from '../service/host/static-routes.ts';
import { prunePictureCache } from '../src/lib/picture-cache.ts';

/** `a/b.html` → `a/b`, so `/a/b` serves it (cleanUrls of vercel.json). @param {string} siteDir */
function cleanUrlOverrides(siteDir) {
  /** @type {Record<string, { path: string }>} */
  const overrides = {};
  for (const entry of readdirSync(siteDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const file = path.relative(siteDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    overrides[file] = { path: file.slice(0, -'.html'.length) };
  }
  return overrides;
}

/** @param {{ target: 'node' | 'vercel' }} options @returns {import('astro').AstroIntegration} */
export function buildOutput({ target }) {
  return {
    name: 'build-output',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const root = process.cwd();
        const siteDir = fileURLToPath(dir);
        const liveDir = path.join(root, 'dist', 'live');
        rmSync(liveDir, { recursive: true, force: true });
        mkdirSync(path.join(root, liveShellDir), { recursive: true });
        for (const name of Object.keys(liveShells)) {
          renameSync(path.join(siteDir, 'live-shells', `${name}.html`), path.join(root, liveShellDir, `${name}.html`));
        }
        rmSync(path.join(siteDir, 'live-shells'), { recursive: true, force: true });

        const routes = buildStaticRoutes(siteDir);
        writeFileSync(path.join(liveDir, 'static-routes.json'), `${JSON.stringify(routes, null, 1)}\n`);
        prunePictureCache();

        if (target !== 'vercel') return;
        const output = path.join(root, '.vercel', 'output');
        rmSync(output, { recursive: true, force: true });
        mkdirSync(output, { recursive: true });
        cpSync(siteDir, path.join(output, 'static'), { recursive: true });
        const config = {
          version: 3,
          routes: [
            ...routes.early,
            { handle: 'filesystem' },
            { handle: 'hit' },
            ...routes.hit,
            { handle: 'error' },
            // The HTML page is Vercel's own 404 route (dest /404); Markdown misses get the note.
            ...routes.notFound.filter((r) => r.src?.includes('\\.md')),
          ],
          overrides: cleanUrlOverrides(siteDir),
        };
        writeFileSync(path.join(output, 'config.json'), `${JSON.stringify(config, null, 1)}\n`);
        if (!existsSync(path.join(output, 'static', '404.html'))) throw new Error('the site has no 404 page');
        logger.info(`Vercel Build Output written: ${Object.keys(config.overrides).length} pages, ${routes.hit.length} file header routes`);
      },
    },
  };
}
