// @ts-check
/**
 * Astro integration that finishes the build for both hosts once Astro has written the site to
 * its `site/` folder (`dist/next/site` for the Node host, `dist/site` for Vercel):
 *   - minifies the page scripts copied from `public/` (each stays a plain deferred script at its
 *     own path, written readable in the repo);
 *   - moves the live pages' frames out of the published site into `live/shells/` beside it,
 *     where the live functions read them (service/functions/page-shell.ts);
 *   - builds the MCP App views (src/mcp-app/) into `live/mcp-app/`, where the MCP function reads
 *     them (scripts/mcp-app.ts, service/functions/built-views.ts);
 *   - writes `live/static-routes.json`, the headers the built files need
 *     (service/host/static-routes.ts), which the Node host applies;
 *   - removes the generated pictures no build has used for a month from the picture cache
 *     (src/lib/picture-cache.ts);
 *   - for the Node host, compresses each file it sends compressed into `compressed/` beside the
 *     site (scripts/compress-build.ts), so no request compresses a built file; on Vercel the CDN
 *     compresses (docs/deployment.md);
 *   - for the Node host, publishes the build whole (scripts/publish-build.ts): a running server
 *     takes it up without a restart, or the build says why it cannot;
 *   - with DEPLOY_TARGET=vercel, writes the Vercel Build Output (`.vercel/output`): the static
 *     files with clean URLs and the same routes, and each live function of `functions/` bundled
 *     with the catalogue, content and frames of this build (scripts/vercel/function-bundles.ts).
 *     `vercel build` then adds the rewrites of vercel.json and the routing middleware (middleware.ts).
 */
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';
import { liveShells } from '../service/live-shells.ts';
import { buildStaticRoutes } from '../service/host/static-routes.ts';
import { cachePolicy } from '../service/http/cache-policy.ts';
import { securityHeaders } from '../service/rules/security-headers.ts';
import { config as middlewareConfig } from '../middleware.ts';
import { prunePictureCache } from '../src/lib/picture-cache.ts';
import { beginBuild, BuildFailure, detachPublishedLinks, publishBuild } from './publish-build.ts';
import { compressBuild } from './compress-build.ts';
import { writeViews } from './mcp-app.ts';
import { buildData, writeFunctionBundles } from './vercel/function-bundles.ts';
import { readSettings } from '../service/config.ts';

/**
 * What Vercel needs to serve each built file as the Node host does, where its documentation
 * guarantees it: a page's clean URL (`a/b.html` at `/a/b`, cleanUrls of vercel.json) and the
 * media type of a file whose extension does not tell it (`overrides[file].contentType`, taken
 * from the Content-Type the build's routes give that file).
 * @param {string} siteDir @param {import('../service/host/static-routes.ts').Route[]} hit
 */
function overridesFor(siteDir, hit) {
  /** @type {Record<string, { path?: string, contentType?: string }>} */
  const overrides = {};
  for (const entry of readdirSync(siteDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const file = path.relative(siteDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    overrides[file] = { path: file.slice(0, -'.html'.length) };
  }
  for (const route of hit) {
    const type = route.headers?.['Content-Type'];
    if (!type || !route.src) continue;
    const file = route.src.slice(2, -1).replace(/\\(.)/g, '$1');
    overrides[file] = { ...overrides[file], contentType: type };
  }
  return overrides;
}

/**
 * The file routes as Build Output `hit` routes: marked `important`, the form Vercel's own
 * builders use for headers that must win over a file's defaults (docs/deployment.md). The media
 * type is left to `overrides`.
 * @param {import('../service/host/static-routes.ts').Route[]} hit
 */
function hitRoutes(hit) {
  return hit.map(({ headers = {}, ...route }) => {
    const { 'Content-Type': _type, ...rest } = headers;
    return { ...route, headers: rest, important: true };
  });
}

/**
 * The paths the routing middleware skips (its matcher, `/((?!a/|b).*)`), which still need the
 * security headers every answer carries: Strict-Transport-Security only for a site served over
 * https, as the request rules decide from the same setting (an unset SITE_URL is
 * http://localhost:$PORT).
 * @param {Pick<import('../service/config.ts').Settings, 'siteUrl'>} settings
 */
export function assetSecurityRoute(settings = readSettings()) {
  const skipped = /^\/\(\(\?!(.*)\)\.\*\)$/.exec(middlewareConfig.matcher)?.[1];
  if (!skipped) throw new Error(`middleware matcher not understood: ${middlewareConfig.matcher}`);
  const https = settings.siteUrl.startsWith('https:');
  return { src: `^/(?:${skipped})`, headers: securityHeaders({ https }), continue: true, important: true };
}

/**
 * The page scripts of `public/`, minified in the built site: comments and long names are for
 * the people who change them, not for a phone on a slow network. Each is minified on its own,
 * with its top-level names and its syntax kept, so a page loads it exactly as before. The offline
 * worker (sw.js) is served as written: no page waits for it, and it is fetched in the background.
 * @param {string} siteDir
 */
async function minifyPageScripts(siteDir) {
  const publicDir = path.join(process.cwd(), 'public');
  for (const name of readdirSync(publicDir)) {
    if (!name.endsWith('.js') || name === 'sw.js') continue;
    const file = path.join(siteDir, name);
    const { code } = await transform(readFileSync(file, 'utf8'), { loader: 'js', minify: true, legalComments: 'none' });
    writeFileSync(file, code);
  }
}

/** Where the Build Output also publishes the Markdown not-found note (see the error routes). */
const notFoundNote = '/api/not-found.md';
/** Where a request for the note's own address is sent: a Markdown path no file has, which the error routes answer. */
const notFoundNoteAsked = '/api/not-found/asked.md';

/** @param {{ target: 'node' | 'vercel' }} options @returns {import('astro').AstroIntegration} */
export function buildOutput({ target }) {
  /** @type {import('./publish-build.ts').BuildStart | undefined} */
  let started;
  return {
    name: 'build-output',
    hooks: {
      'astro:config:setup': ({ command, updateConfig }) => {
        if (command !== 'build') return;
        if (target === 'vercel') detachPublishedLinks(process.cwd());
        else {
          // Beside a running server, made for the address it serves (publish-build.ts); a build it
          // would not take up stops here, before anything is built, with the one line that says why.
          try {
            started = beginBuild(process.cwd());
          } catch (error) {
            if (!(error instanceof BuildFailure)) throw error;
            console.error(error.message);
            process.exit(1);
          }
          updateConfig({ site: started.siteUrl });
        }
      },
      'astro:build:done': async ({ dir, logger }) => {
        const root = process.cwd();
        const siteDir = fileURLToPath(dir);
        await minifyPageScripts(siteDir);
        const liveDir = path.join(path.dirname(siteDir), 'live');
        const shellDir = path.join(liveDir, 'shells');
        rmSync(liveDir, { recursive: true, force: true });
        mkdirSync(shellDir, { recursive: true });
        for (const name of Object.keys(liveShells)) {
          renameSync(path.join(siteDir, 'live-shells', `${name}.html`), path.join(shellDir, `${name}.html`));
        }
        rmSync(path.join(siteDir, 'live-shells'), { recursive: true, force: true });
        await writeViews(liveDir);

        const routes = buildStaticRoutes(siteDir);
        writeFileSync(path.join(liveDir, 'static-routes.json'), `${JSON.stringify(routes, null, 1)}\n`);
        prunePictureCache();

        if (target !== 'vercel') {
          if (!started) throw new Error('the build was not begun (astro:config:setup did not run)');
          const compressedDir = path.join(path.dirname(siteDir), 'compressed');
          rmSync(compressedDir, { recursive: true, force: true });
          const began = performance.now();
          const compressed = await compressBuild(siteDir, compressedDir);
          logger.info(
            `Compressed ${compressed.files} files (${(compressed.bytes / 2 ** 20).toFixed(1)} MiB; Brotli and gzip ${(compressed.compressedBytes / 2 ** 20).toFixed(1)} MiB, ${compressed.fromCache} forms from the cache) in ${((performance.now() - began) / 1000).toFixed(1)} s`,
          );
          await publishBuild(root, started, logger);
          return;
        }
        const output = path.join(root, '.vercel', 'output');
        rmSync(output, { recursive: true, force: true });
        mkdirSync(output, { recursive: true });
        cpSync(siteDir, path.join(output, 'static'), { recursive: true });
        const markdownNotFound = routes.hit.find((r) => r.src === '^/404\\.md$');
        if (!markdownNotFound) throw new Error('the site has no 404.md');
        const notFoundHeaders = { ...markdownNotFound.headers, 'Cache-Control': cachePolicy.never };
        mkdirSync(path.join(output, 'static', path.dirname(notFoundNote)), { recursive: true });
        cpSync(path.join(siteDir, '404.md'), path.join(output, 'static', notFoundNote));
        const config = {
          version: 3,
          routes: [
            ...routes.early,
            // The note is a file only for the error routes to answer with. Asked for by its own
            // address it names nothing, as on the Node host: it goes to a path no file has, and
            // the error routes answer it as any other missing Markdown path (404, the note).
            { src: `^${notFoundNote.replace(/[.]/g, '\\.')}$`, dest: notFoundNoteAsked, continue: true },
            { handle: 'filesystem' },
            { handle: 'hit' },
            assetSecurityRoute(),
            ...hitRoutes(routes.hit),
            ...hitRoutes([
              { src: `^${notFoundNote.replace(/[.]/g, '\\.')}$`, headers: notFoundHeaders, continue: true },
            ]),
            { handle: 'error' },
            // Vercel's own error route (every miss outside /api → the HTML page) comes first among
            // the routes that end matching; a `continue` route comes before it, and sends Markdown
            // misses to the note under /api, which that route leaves alone.
            { src: '^/.*\\.md$', dest: notFoundNote, status: 404, continue: true },
          ],
          overrides: overridesFor(siteDir, routes.hit),
        };
        writeFileSync(path.join(output, 'config.json'), `${JSON.stringify(config, null, 1)}\n`);
        if (!existsSync(path.join(output, 'static', '404.html'))) throw new Error('the site has no 404 page');
        const settings = readSettings();
        const bundles = await writeFunctionBundles(
          root,
          output,
          buildData(path.resolve(root, settings.CONTENT_DIR), liveDir, settings),
        );
        const types = Object.values(config.overrides).filter((o) => o.contentType).length;
        logger.info(
          `Vercel Build Output written: ${Object.keys(config.overrides).length - types} clean URLs, ${types} media types, ${routes.hit.length} file header routes, ${bundles.length} functions, each one file at a cold start`,
        );
      },
    },
  };
}
