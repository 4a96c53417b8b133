// @ts-check
/**
 * Astro integration for the Vercel target: bundles the root middleware.ts (the request rules)
 * as an edge function and routes every request through it before the filesystem phase.
 * Astro's own adapter middleware only sees on-demand routes, never the static files.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { extensionlessMediaTypes } from '../service/site-files.ts';

export const rulesFunctionName = '_request-rules';

/** @returns {import('astro').AstroIntegration} */
export function vercelRequestRules() {
  return {
    name: 'vercel-request-rules',
    hooks: {
      'astro:build:done': async ({ logger }) => {
        const root = process.cwd();
        const output = path.join(root, '.vercel', 'output');
        const funcDir = path.join(output, 'functions', `${rulesFunctionName}.func`);
        await mkdir(funcDir, { recursive: true });
        await build({
          entryPoints: [path.join(root, 'middleware.ts')],
          outfile: path.join(funcDir, 'index.js'),
          bundle: true,
          format: 'esm',
          platform: 'browser',
          target: 'es2022',
          minify: true,
          conditions: ['worker', 'browser'],
          define: { 'process.env.NODE_ENV': '"production"' },
          logLevel: 'warning',
        });
        await writeFile(path.join(funcDir, '.vc-config.json'), JSON.stringify({ runtime: 'edge', entrypoint: 'index.js' }, null, 2));

        const configPath = path.join(output, 'config.json');
        const config = JSON.parse(await readFile(configPath, 'utf8'));
        const routes = Array.isArray(config.routes) ? config.routes : [];
        const rulesRoute = { src: '^/(.*)$', middlewarePath: rulesFunctionName, middlewareRawSrc: ['/(.*)'], continue: true, override: true };
        const markdown404 = { src: '^/.*\\.md$', dest: '/404.md', status: 404 };
        // Static files without an extension (the API catalog) get their media type from a route:
        // Vercel cannot guess it, and the adapter drops prerendered endpoints' headers.
        const mediaTypeRoutes = Object.entries(extensionlessMediaTypes()).map(([path, type]) => ({
          src: `^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`,
          headers: { 'Content-Type': type },
          continue: true,
        }));
        config.routes = [rulesRoute, ...mediaTypeRoutes, ...routes.filter((/** @type {{ middlewarePath?: string }} */ r) => r.middlewarePath !== rulesFunctionName)];
        // Markdown clients that miss get the Markdown recovery note, just before the adapter's
        // catch-all HTML 404.
        const catchAll = config.routes.findIndex((/** @type {{ src?: string, status?: number }} */ r) => r.src === '^/.*$' && r.status === 404);
        config.routes.splice(catchAll >= 0 ? catchAll : config.routes.length, 0, markdown404);
        await writeFile(configPath, JSON.stringify(config, null, 2));
        logger.info(`request rules bundled as ${rulesFunctionName} ahead of the filesystem phase`);
      },
    },
  };
}


