// @ts-check
import { defineConfig } from 'astro/config';
import { buildOutput } from './scripts/build-output.mjs';
import { loadEnvFile } from './service/env-file.ts';
import { readSettings } from './service/config.ts';
import { stagingDir } from './service/host/build-layout.ts';

// The settings `npm start` reads, from the same places (the environment, then .env), so the
// site is built for the address the server answers at.
loadEnvFile();
const settings = readSettings();

// The site is built once per deploy; the live parts are the functions of functions/. server.ts
// serves both locally (and on any Node host): each build is made in dist/next and published whole
// (scripts/publish-build.ts), so a running server takes it up without a restart. On Vercel, a
// deploy is one build: the site goes to dist/site, build-output.mjs writes the Build Output with
// each function bundled (scripts/vercel/function-bundles.ts), and `vercel build` adds the routing middleware.
export default defineConfig({
  site: settings.siteUrl,
  output: 'static',
  outDir: settings.DEPLOY_TARGET === 'vercel' ? './dist/site' : `./${stagingDir}/site`,
  // Per-project cache: test builds copy the project and share node_modules through a link, and
  // Astro's default cache (node_modules/.astro, which holds the content store) would be shared too.
  // On Vercel node_modules is what the build cache keeps between deploys (docs/deployment.md).
  cacheDir: settings.DEPLOY_TARGET === 'vercel' ? './node_modules/.astro' : './.astro/cache',
  trailingSlash: 'ignore',
  // One page at a time, so the build log pairs each file with its own time. The social cards, the
  // one slow kind of page, are drawn several at once before their pages (src/components/social-card.ts).
  build: { format: 'file', inlineStylesheets: 'never', concurrency: 1 },
  compressHTML: true,
  // A rebuild skips a page whose cacheKey (from getStaticPaths) and code are those of the last
  // build, and keeps its file: each trip's page, /v1 answer and social card (src/lib/content-key.ts).
  experimental: { incrementalBuild: true },
  integrations: [buildOutput({ target: settings.DEPLOY_TARGET })],
  server: { port: settings.PORT, host: settings.HOST },
});
