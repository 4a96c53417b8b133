/**
 * The routing of the replay: the Build Output v3 router of Cloudflare's `@cloudflare/next-on-pages`
 * (its `RoutesMatcher` and `handleRequest`, which run Vercel's routing phases, the routing
 * middleware's protocol and the `important` header rule on Cloudflare Pages). The package is a
 * CLI whose peer dependencies (next, wrangler, vercel ≤ 47) cannot live beside this project's
 * vercel 60, and it ships the router as TypeScript sources for its own bundler; so the exact
 * tarballs are fetched by `npm pack` (checked against the registry's integrity), kept under
 * node_modules/.cache, and the router bundled once with esbuild.
 *
 * One line is changed (`routerFixes`): the router keeps a middleware's answer only when it has a
 * body (`!!this.body`), so a middleware's 204 (a CORS preflight) would fall through to a 404;
 * Vercel sends the middleware's answer as it is. The bundle fails if the line is not found.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { projectRoot } from '../project.ts';

/** The router and the two packages it imports, at the versions its package.json names. */
const routerPackages = [
  {
    name: '@cloudflare/next-on-pages',
    version: '1.13.16',
    integrity: 'sha512-52h51WNcfmx3szTdTd+n/xgz4qNxFtjOGG0zwnUAhTg8cjPwSUYmZp0OPRNw2jYG9xHwRS2ttSPAS8tcGkQGsw==',
  },
  {
    name: 'pcre-to-regexp',
    version: '1.1.0',
    integrity: 'sha512-KF9XxmUQJ2DIlMj3TqNqY1AWvyvTuIuq11CuuekxyaYMiFuMKGgQrePYMX5bXKLhLG3sDI4CsGAYHPaT7VV7+g==',
  },
  {
    name: 'cookie',
    version: '0.5.0',
    integrity: 'sha512-YZ3GUyn/o8gfKJlnlX7g7xq4gyO6OSuhGPKaaGssGB2qgDUS0gPgtTvoyZLTt9Ab6dC4hfc9dV5arkvc/OCmrw==',
  },
] as const;

export const replayTool = `${routerPackages[0].name}@${routerPackages[0].version}`;

/** Fixes to the router's sources, each with the reason above: [file, text, replacement]. */
const routerFixes: [string, string, string][] = [['routes-matcher.ts', '!!this.body', 'this.body !== undefined']];

const cacheDir = path.join(
  projectRoot,
  'node_modules',
  '.cache',
  'vercel-replay',
  routerPackages.map((p) => `${p.name.replace('/', '+')}@${p.version}`).join(','),
);

function unpack(pkg: (typeof routerPackages)[number], into: string): string {
  const dir = path.join(into, 'packages', pkg.name);
  if (existsSync(path.join(dir, 'package.json'))) return dir;
  const tarballs = path.join(into, 'tarballs');
  mkdirSync(tarballs, { recursive: true });
  const packed = spawnSync('npm', ['pack', `${pkg.name}@${pkg.version}`, '--json', '--pack-destination', tarballs], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (packed.status !== 0) throw new Error(`npm pack ${pkg.name}@${pkg.version} failed: ${packed.stderr}`);
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
  const tarball = path.join(tarballs, path.basename(filename));
  const digest = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  if (digest !== pkg.integrity)
    throw new Error(`${pkg.name}@${pkg.version}: integrity ${digest} is not the registry's ${pkg.integrity}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const untar = spawnSync('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1']);
  if (untar.status !== 0) throw new Error(`could not unpack ${tarball}: ${String(untar.stderr)}`);
  return dir;
}

/** The path of the bundled router module (`handleRequest`, `RoutesMatcher`), made once. */
export async function routerModule(): Promise<string> {
  const bundle = path.join(
    cacheDir,
    `router-${createHash('sha1').update(JSON.stringify(routerFixes)).digest('hex').slice(0, 8)}.mjs`,
  );
  if (existsSync(bundle)) return bundle;
  const [router, pcre, cookie] = routerPackages.map((pkg) => unpack(pkg, cacheDir));
  const templates = path.join(router!, 'templates', '_worker.js');
  const entry = path.join(cacheDir, 'entry.ts');
  writeFileSync(
    entry,
    `export { handleRequest } from ${JSON.stringify(path.join(templates, 'handleRequest.ts'))};\nexport { RoutesMatcher } from ${JSON.stringify(path.join(templates, 'routes-matcher.ts'))};\n`,
  );
  await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    outfile: bundle,
    alias: { 'pcre-to-regexp': pcre!, cookie: cookie! },
    plugins: [
      {
        name: 'router-fixes',
        setup(bundler) {
          bundler.onLoad({ filter: /routes-matcher\.ts$/ }, (args) => {
            let source = readFileSync(args.path, 'utf8');
            for (const [file, text, replacement] of routerFixes) {
              if (!args.path.endsWith(file)) continue;
              if (source.split(text).length !== 2) throw new Error(`${file}: expected "${text}" once`);
              source = source.replace(text, replacement);
            }
            return { contents: source, loader: 'ts' };
          });
        },
      },
    ],
    mainFields: ['module', 'main'],
    logLevel: 'error',
  });
  return bundle;
}
