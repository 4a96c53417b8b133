/**
 * The build as a deployment runs it (`buildCommand` of vercel.json): Astro's warnings and errors
 * only (a running server that cannot take the build up is one), then one line that says what was
 * built. `npm run build` keeps Astro's full log.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'astro';
import { readSettings } from '../service/config.ts';
import { publishedBuild } from '../service/host/build-layout.ts';

const started = performance.now();
await build({ logLevel: 'warn' });
// Read once the build has loaded .env (astro.config.mjs), as the build itself read them.
const { DEPLOY_TARGET } = readSettings();

const site = path.resolve('dist', 'site');
const files = readdirSync(site, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
const pages = files.filter((e) => e.name.endsWith('.html')).length;
const parts = [`${pages} pages and ${files.length - pages} other files in dist/site`];
const output = path.resolve('.vercel', 'output', 'config.json');
const published = publishedBuild(process.cwd());
if (DEPLOY_TARGET !== 'vercel' && published) parts.push(`published as build ${path.basename(published.dir)}`);
if (DEPLOY_TARGET === 'vercel' && existsSync(output)) {
  const config = JSON.parse(readFileSync(output, 'utf8')) as {
    overrides?: Record<string, { contentType?: string }>;
    routes?: unknown[];
  };
  const types = Object.values(config.overrides ?? {}).filter((o) => o.contentType).length;
  parts.push(`a Vercel Build Output with ${types} media-type overrides and ${config.routes?.length ?? 0} routes`);
}
console.log(`Built ${parts.join(', ')} in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
