/**
 * The live functions as the Vercel Build Output carries them: each entry of functions/ bundled by
 * esbuild into one file, with the build it was made in (the catalogue it made, the content it was
 * made of, as read and checked, and its page frames), in `.vercel/output/functions/api/<name>.func/` beside its
 * `.vc-config.json` (the Build Output API's prebuilt function). A function carries only the
 * modules its entry reaches: the catalogue function no storage, mail or counters.
 *
 * The folder holds no `api/`: `vercel build` would build each file there as a function of its own
 * (@vercel/node: every file traced with its packages, about a thousand files each) over these.
 * What each bundle holds, package by package, is written to `.vercel/function-bundles.json`.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build, type Metafile, type Plugin } from 'esbuild';
import { readContent } from '../domain/catalogue/content-files.ts';
import { catalogueOf, checkedFrame } from '../service/functions/site-build.ts';
import { liveShells, type LiveShellName } from '../service/live-shells.ts';
import type { Settings } from '../service/config.ts';

/** What the report says of one bundle. */
export interface FunctionBundle {
  name: string;
  bytes: number;
  /** The packages of node_modules it carries, with the bytes each takes in it. */
  packages: Record<string, number>;
}

/** The Build Output API's description of a Node.js function: one handler file exporting a web handler (`{ fetch }`). */
const vcConfig = {
  runtime: 'nodejs24.x',
  handler: 'index.mjs',
  launcherType: 'Nodejs',
  // For (req, res) handlers only; these answer web Requests, as the routing middleware does.
  shouldAddHelpers: false,
  shouldAddSourcemapSupport: false,
};

/**
 * Modules a function never loads on Vercel: the embedded database (storage there is PostgreSQL,
 * docs/deployment.md) and pg's optional native binding.
 */
const notCarried = ['@electric-sql/pglite', 'pg-native'];

/**
 * `astro/zod` is zod/v4, re-exported by Astro as one object (`z`), which keeps every part of zod in
 * a bundle whatever is used. The project's modules name it `import { z } from 'astro/zod'`; in a
 * bundle they import zod/v4's namespace instead (the same package, so the same schemas), from
 * which esbuild keeps only the parts reached: a third of zod in the catalogue function.
 */
const zodByName: Plugin = {
  name: 'zod-by-name',
  setup(builder) {
    const named = /^import (type )?\{ z \} from 'astro\/zod';$/gm;
    builder.onLoad({ filter: /\/(domain|service|functions)\/.*\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes("'astro/zod'")) return undefined;
      return { contents: source.replace(named, "import $1* as z from 'zod/v4';"), loader: 'ts' };
    });
    // Any other form of the import still gets zod itself, not the framework.
    builder.onResolve({ filter: /^astro\/zod$/ }, (args) =>
      builder.resolve('zod/v4', { kind: args.kind, resolveDir: args.resolveDir }),
    );
  },
};

/** What a bundle carries: the build's catalogue and content (as JSON), and its frames. */
interface CarriedBuild {
  catalogue: string;
  content: string;
  frames: Record<LiveShellName, string>;
}

/** The build the functions answer from: its catalogue, content and the frames in `liveDir`. */
export function buildData(contentDir: string, liveDir: string, settings: Settings): CarriedBuild {
  const frames = Object.fromEntries(
    (Object.keys(liveShells) as LiveShellName[]).map((name) => {
      const file = path.join(liveDir, 'shells', `${name}.html`);
      return [name, checkedFrame(readFileSync(file, 'utf8'), file)];
    }),
  ) as Record<LiveShellName, string>;
  const content = readContent(contentDir);
  // As the functions make it: content they could not answer from stops the build here.
  const catalogue = catalogueOf(content, settings);
  return { catalogue: JSON.stringify(catalogue), content: JSON.stringify(content), frames };
}

function packagesOf(metafile: Metafile): Record<string, number> {
  const packages: Record<string, number> = {};
  for (const output of Object.values(metafile.outputs))
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const within = input.split('node_modules/').at(-1)!;
      if (within === input) continue;
      const [scope = '', name = ''] = within.split('/');
      const key = scope.startsWith('@') ? `${scope}/${name}` : scope;
      packages[key] = (packages[key] ?? 0) + bytesInOutput;
    }
  return packages;
}

/** Bundles every entry of `root`/functions into `outputDir`/functions/api, with `data` inside. */
export async function writeFunctionBundles(
  root: string,
  outputDir: string,
  data: CarriedBuild,
): Promise<FunctionBundle[]> {
  const names = readdirSync(path.join(root, 'functions'))
    .filter((file) => file.endsWith('.ts'))
    .map((file) => file.slice(0, -'.ts'.length))
    .sort();
  // Each parsed by JSON.parse from a string, faster to load than the same data as JavaScript, and
  // the content only where a deployment's settings are not the build's.
  const carried = [
    `catalogue: JSON.parse(${JSON.stringify(data.catalogue)})`,
    `content: () => JSON.parse(${JSON.stringify(data.content)})`,
    `frames: ${JSON.stringify(data.frames)}`,
  ].join(', ');
  const bundles: FunctionBundle[] = [];
  for (const name of names) {
    const dir = path.join(outputDir, 'functions', 'api', `${name}.func`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const result = await build({
      stdin: {
        contents: [
          `import make from './functions/${name}.ts';`,
          `import { readSettings } from './service/config.ts';`,
          `import { bundledBuild } from './service/functions/site-build.ts';`,
          `export default make(bundledBuild({ ${carried} }, () => readSettings()));`,
        ].join('\n'),
        resolveDir: root,
        sourcefile: `functions/${name}.bundle.js`,
        loader: 'js',
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      outfile: path.join(dir, vcConfig.handler),
      // Without comments and spaces (less to read at a cold start), with the names kept readable in stack traces.
      minifyWhitespace: true,
      minifySyntax: true,
      legalComments: 'eof',
      // The CommonJS packages (pg, redis) require Node's modules, which an ES module has no `require` for.
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
      external: notCarried,
      plugins: [zodByName],
      metafile: true,
      logLevel: 'error',
    });
    writeFileSync(path.join(dir, '.vc-config.json'), `${JSON.stringify(vcConfig, null, 1)}\n`);
    const bytes = readFileSync(path.join(dir, vcConfig.handler)).byteLength;
    bundles.push({ name: `api/${name}`, bytes, packages: packagesOf(result.metafile) });
  }
  writeFileSync(path.join(outputDir, '..', 'function-bundles.json'), `${JSON.stringify(bundles, null, 1)}\n`);
  return bundles;
}
