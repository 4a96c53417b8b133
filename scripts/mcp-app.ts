/**
 * Builds the MCP App views (src/mcp-app/) into self-contained HTML documents, with the site: the
 * script bundled and minified by esbuild (the view's code, the @modelcontextprotocol/ext-apps
 * `App` class and what it needs), the style minified, both written into the page, which loads
 * nothing else. The build's last step (build-output.mjs) writes them into the build's
 * `live/mcp-app/`, where the MCP function reads them (service/functions/built-views.ts) and its
 * server fills in the catalogue's data (service/mcp/views.ts).
 *
 * The App imports zod by its named export `z`, which holds the whole library (every locale
 * included) as one object, so a bundler must keep all of it. Each such import is read here as
 * the namespace it is (`import * as z`), the same object to the code that uses it, so that only
 * the parts the App calls are bundled; the build fails if a locale still gets in.
 */
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, transform, type Metafile, type Plugin } from 'esbuild';
import { viewDataMarker } from '../service/mcp/views.ts';

const sources = path.join(import.meta.dirname, '..', 'src', 'mcp-app');

/** The views: each one's folder name in the build, and its sources in src/mcp-app/. */
export const views = { 'departure-search': 'departure-search' } as const;

/** `import{z as Q}from"zod/v4"` in the SDK's own modules, read as `import*as Q from"zod/v4"` (the same object). */
const zodAsNamespace: Plugin = {
  name: 'zod-as-namespace',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]@modelcontextprotocol[\\/].*\.m?js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8').replace(
        /import\s*\{\s*z\s+as\s+([\w$]+)\s*\}\s*from\s*(["'])zod(\/v4)?\2/g,
        'import*as $1 from$2zod$3$2',
      );
      return { contents: text, loader: 'js' };
    });
  },
};

function checkBundle(metafile: Metafile, name: string): void {
  const bundled = Object.values(metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs).flatMap(([file, input]) => (input.bytesInOutput > 0 ? [file] : [])),
  );
  const locales = bundled.filter((file) => /zod[\\/]v4[\\/]locales[\\/](?!en\.)/.test(file));
  if (locales.length > 0)
    throw new Error(
      `the ${name} view bundles ${locales.length} of zod's locales: an import of zod keeps the whole library (scripts/mcp-app.ts)`,
    );
}

export interface BuiltView {
  html: string;
  /** The bytes of the document, and gzipped, as the build measured them. */
  bytes: number;
  gzipBytes: number;
}

/**
 * One view as its document: the page with its style and script written in, the data block left
 * for the server. `withoutSdk` leaves the MCP packages out of the script (the page then does not
 * run): what the view's own code, style and markup weigh, measured beside the whole.
 */
export async function buildView(name: keyof typeof views, { withoutSdk = false } = {}): Promise<BuiltView> {
  const stem = path.join(sources, views[name]);
  const script = await build({
    ...(withoutSdk ? { external: ['@modelcontextprotocol/*'] } : {}),
    entryPoints: [`${stem}.ts`],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    legalComments: 'none',
    write: false,
    metafile: true,
    plugins: [zodAsNamespace],
  });
  checkBundle(script.metafile, name);
  const style = await transform(readFileSync(`${stem}.css`, 'utf8'), { loader: 'css', minify: true });
  // The page as written (laid out by Prettier), without the line breaks and indentation between
  // its elements; its three places: the style, the script and the data block the server fills.
  const page = readFileSync(`${stem}.html`, 'utf8')
    .replace(/>\s*\n\s*</g, '><')
    .replace(/<style>\s*\/\*style\*\/\s*<\/style>/, '<style>/*style*/</style>')
    .replace(/<script>\s*\/\*script\*\/\s*<\/script>/, '<script>/*script*/</script>')
    .replace(/<script id="view-data" type="application\/json">\s*null\s*<\/script>/, viewDataMarker);
  for (const place of ['<style>/*style*/</style>', '<script>/*script*/</script>', viewDataMarker])
    if (!page.includes(place)) throw new Error(`${stem}.html has no ${place}`);
  // Neither may end its element early: "</script" or "</style" in a string is written "<\/…", the same string.
  const js = script.outputFiles[0]!.text.trim().replace(/<\/(script)/gi, '<\\/$1');
  const css = style.code.trim().replace(/<\/(style)/gi, '<\\/$1');
  const html = page
    .replace('<style>/*style*/</style>', () => `<style>${css}</style>`)
    .replace('<script>/*script*/</script>', () => `<script type="module">${js}</script>`);
  const bytes = Buffer.byteLength(html);
  return { html, bytes, gzipBytes: gzipSync(html, { level: 9 }).length };
}

/** Writes every view into `<liveDir>/mcp-app/<name>.html`; returns what it wrote. */
export async function writeViews(liveDir: string): Promise<Record<string, BuiltView>> {
  const dir = path.join(liveDir, 'mcp-app');
  mkdirSync(dir, { recursive: true });
  const built: Record<string, BuiltView> = {};
  for (const name of Object.keys(views) as (keyof typeof views)[]) {
    const view = await buildView(name);
    writeFileSync(path.join(dir, `${name}.html`), view.html);
    built[name] = view;
  }
  return built;
}
