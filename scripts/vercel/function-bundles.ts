/**
 * The live functions as the Vercel Build Output carries them: each entry of functions/ bundled by
 * esbuild into one file, with the build it was made in (the catalogue it made, the content it was
 * made of, as read and checked, and its page frames), in `.vercel/output/functions/api/<name>.func/` beside its
 * `.vc-config.json` (the Build Output API's prebuilt function). A function carries only the
 * modules its entry reaches: the catalogue function no storage, mail or counters. The MCP App
 * views the build made lie beside the bundle of the function that shows them (the MCP function),
 * in `mcp-app/`, read when a client that shows views asks for one.
 *
 * The folder holds no `api/`: `vercel build` would build each file there as a function of its own
 * (@vercel/node: every file traced with its packages, about a thousand files each) over these.
 * What each bundle holds, package by package, is written to `.vercel/function-bundles.json`.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build, type Metafile, type Plugin } from 'esbuild';
import { readContent } from '../../domain/catalogue/content-files.ts';
import { catalogueOf, checkedFrame, type BuildData } from '../../service/functions/site-build.ts';
import { viewFiles } from '../../service/functions/built-views.ts';
import { liveShells, type LiveShellName } from '../../service/live-shells.ts';
import type { Settings } from '../../service/config.ts';

/** What the report says of one bundle. */
export interface FunctionBundle {
  name: string;
  /** Its files: the one loaded at a cold start, those loaded later on some paths, the content and any views. */
  files: number;
  bytes: number;
  /** The bytes of the file loaded at a cold start. */
  startBytes: number;
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

/** The build's content beside each bundle (BuildData.content). */
const contentFile = 'content.json';

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

/** Where the views lie beside a bundle that shows them (BuildData.views). */
const viewsFolder = 'mcp-app';

/** The module that shows the views: a bundle that reaches it gets them beside it. */
const showsViews = /(^|\/)service\/mcp\/views\.ts$/;

/** What a bundle carries: the build's catalogue and content (as JSON), its frames, and its views' documents by file. */
interface CarriedBuild {
  catalogue: string;
  madeWith: BuildData['madeWith'];
  content: string;
  frames: Record<LiveShellName, string>;
  views: Record<string, string>;
}

/**
 * The MCP server package chooses its JSON Schema validator by runtime (its `_shims` export): on
 * Node, Ajv, which it loads (about 200 KB) with the package whether or not a schema is ever
 * validated by it. The site's tools declare zod schemas, which the package checks through zod,
 * and it asks for no elicitation, so no JSON Schema is validated here: the bundle takes the
 * package's own lighter validator for other runtimes (its `validators/cf-worker`) instead.
 */
const mcpWithoutAjv = (root: string): Plugin => ({
  name: 'mcp-without-ajv',
  setup(builder) {
    builder.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, () => ({
      path: 'mcp-shims',
      namespace: 'mcp-without-ajv',
    }));
    builder.onLoad({ filter: /.*/, namespace: 'mcp-without-ajv' }, () => ({
      contents: [
        "export { CfWorkerJsonSchemaValidator as DefaultJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';",
        "export { default as process } from 'node:process';",
      ].join('\n'),
      resolveDir: root,
      loader: 'js',
    }));
  },
});

/** The build the functions answer from: its catalogue, content, and the frames and views in `liveDir`. */
export function buildData(contentDir: string, liveDir: string, settings: Settings): CarriedBuild {
  const frames = Object.fromEntries(
    (Object.keys(liveShells) as LiveShellName[]).map((name) => {
      const file = path.join(liveDir, 'shells', `${name}.html`);
      return [name, checkedFrame(readFileSync(file, 'utf8'), file)];
    }),
  ) as Record<LiveShellName, string>;
  const views = Object.fromEntries(
    Object.values(viewFiles).map((file) => [file, readFileSync(path.join(liveDir, viewsFolder, file), 'utf8')]),
  );
  const content = readContent(contentDir);
  // As the functions make it: content they could not answer from stops the build here.
  const catalogue = catalogueOf(content, settings);
  return {
    catalogue: JSON.stringify(catalogue),
    madeWith: { siteUrl: settings.siteUrl, contactEmail: settings.CONTACT_EMAIL ?? null },
    content: JSON.stringify(content),
    frames,
    views,
  };
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

/**
 * One function's bundle of `entry` (JavaScript, resolved from `root`) in `dir`: `index.mjs`, loaded
 * at a cold start, and the files it loads later. The Build Output's functions are made with it,
 * and so is the floor the benchmark measures them against (scripts/bench/cold-start.ts).
 */
export function bundleFunction(root: string, dir: string, entry: string) {
  return build({
    stdin: { contents: entry, resolveDir: root, sourcefile: 'function.bundle.js', loader: 'js' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    outdir: dir,
    entryNames: 'index',
    outExtension: { '.js': '.mjs' },
    // What is loaded only on some paths (the Redis and PostgreSQL clients, Resend's SDK, each
    // behind a dynamic import) in files of its own, read when first used, not at a cold start.
    splitting: true,
    chunkNames: 'later/[name]-[hash]',
    // Without comments and spaces (less to read at a cold start), with the names kept readable in stack traces.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'eof',
    // The CommonJS packages (pg, redis) require Node's modules, which an ES module has no `require` for.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    external: notCarried,
    plugins: [zodByName, mcpWithoutAjv(root)],
    metafile: true,
    logLevel: 'error',
  });
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
  // The catalogue parsed by JSON.parse from a string, faster to load than the same data as
  // JavaScript; the content, needed only where a deployment's settings are not the build's, in a
  // file beside the bundle, read then.
  const carried = [
    `catalogue: JSON.parse(${JSON.stringify(data.catalogue)})`,
    `madeWith: ${JSON.stringify(data.madeWith)}`,
    `content: () => JSON.parse(readFileSync(new URL('./${contentFile}', import.meta.url), 'utf8'))`,
    `frames: ${JSON.stringify(data.frames)}`,
    `views: viewsReadBy((file) => readFileSync(new URL(\`./${viewsFolder}/\${file}\`, import.meta.url), 'utf8'))`,
  ].join(', ');
  const bundles: FunctionBundle[] = [];
  for (const name of names) {
    const dir = path.join(outputDir, 'functions', 'api', `${name}.func`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const result = await bundleFunction(
      root,
      dir,
      [
        `import { readFileSync } from 'node:fs';`,
        `import make from './functions/${name}.ts';`,
        `import { readSettings } from './service/config.ts';`,
        `import { bundledBuild } from './service/functions/site-build.ts';`,
        `import { viewsReadBy } from './service/functions/built-views.ts';`,
        `export default make(bundledBuild({ ${carried} }, () => readSettings()));`,
      ].join('\n'),
    );
    writeFileSync(path.join(dir, '.vc-config.json'), `${JSON.stringify(vcConfig, null, 1)}\n`);
    writeFileSync(path.join(dir, contentFile), data.content);
    const views = Object.keys(result.metafile.inputs).some((input) => showsViews.test(input))
      ? Object.entries(data.views)
      : [];
    if (views.length > 0) mkdirSync(path.join(dir, viewsFolder));
    for (const [file, text] of views) writeFileSync(path.join(dir, viewsFolder, file), text);
    const outputs = Object.entries(result.metafile.outputs);
    bundles.push({
      name: `api/${name}`,
      files: outputs.length + 1 + views.length,
      bytes: outputs.reduce(
        (sum, [, output]) => sum + output.bytes,
        Buffer.byteLength(data.content) + views.reduce((sum, [, text]) => sum + Buffer.byteLength(text), 0),
      ),
      startBytes: outputs.find(([file]) => file.endsWith(`/${vcConfig.handler}`))?.[1].bytes ?? 0,
      packages: packagesOf(result.metafile),
    });
  }
  writeFileSync(path.join(outputDir, '..', 'function-bundles.json'), `${JSON.stringify(bundles, null, 1)}\n`);
  return bundles;
}
