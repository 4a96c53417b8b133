// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import vercel from '@astrojs/vercel';
import { vercelRequestRules } from './scripts/vercel-request-rules.mjs';

const target = process.env.DEPLOY_TARGET === 'vercel' ? 'vercel' : 'node';
const port = Number(process.env.PORT || 4321);
const site = (process.env.SITE_URL || `http://localhost:${port}`).replace(/\/+$/, '');

// One codebase, two hosts. Locally (and on any Node host) server.ts serves the static files
// and calls Astro's handler for the on-demand routes; on Vercel the adapter writes the Build
// Output and vercelRequestRules() puts the request rules in front of the static files.
export default defineConfig({
  site,
  output: 'static',
  // Per-project cache: test builds copy the project and share node_modules through a link, and
  // Astro's default cache (node_modules/.astro, which holds the content store) would be shared too.
  cacheDir: './.astro/cache',
  trailingSlash: 'ignore',
  build: { format: 'file', inlineStylesheets: 'never' },
  compressHTML: true,
  security: { checkOrigin: false },
  adapter: target === 'vercel' ? vercel() : node({ mode: 'middleware' }),
  integrations: target === 'vercel' ? [vercelRequestRules()] : [],
  server: { port, host: process.env.HOST || '127.0.0.1' },
});
