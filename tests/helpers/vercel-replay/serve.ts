/**
 * The Vercel deployment replayed on loopback: a real HTTP server that answers from a Build Output
 * (`.vercel/output`) the way the platform does, through the router of `@cloudflare/next-on-pages`
 * (router-package.ts). Run as its own process (`node serve.ts <output dir> <port>`), in the
 * project folder, like a function's file system on Vercel.
 *
 * What is ours is only what the router leaves to its host, each piece modelled on Vercel's
 * documentation and named in docs/deployment.md ("What the replay assumes"):
 *   - the routes grouped by phase and the output map (static files, `overrides`, functions and
 *     the routing middleware), as next-on-pages prepares them (its processVercelOutput);
 *   - a static file answers with the type of its extension (as `vercel dev` types it, with
 *     mime-types) or of its override, and an ETag, and
 *     without a Cache-Control of its own: Vercel's default is added last, where nothing set one;
 *   - each function and the middleware are the built files, imported from their `.func` folder
 *     and called as Vercel's Node.js launcher calls a web handler (a function, or `{ fetch }`);
 *   - the client's address in X-Real-IP and X-Forwarded-For, and a request id in X-Vercel-Id,
 *     set by the platform only; the routing middleware runs once per request;
 *   - a GET or HEAD whose If-None-Match names the answer's ETag gets 304, as from the CDN, with
 *     no representation metadata (service/http/not-modified.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import mime from 'mime-types';
import { representationHeaders } from '../../../service/http/not-modified.ts';
import { routerModule } from './router-package.ts';

type Route = Record<string, unknown> & { src?: string; handle?: string; middlewarePath?: string };
type OutputItem =
  | { type: 'static' }
  | { type: 'override'; path: string; headers?: Record<string, string> }
  | { type: 'function' | 'middleware'; entrypoint: string };

/** Vercel's answer for a static file with no Cache-Control of its own (docs: caching/cache-control-headers). */
export const vercelDefaultCacheControl = 'public, max-age=0, must-revalidate';

/** A static file's type by its extension, as `vercel dev` gives it (mime-types); else octet-stream. */
function typeByExtension(file: string): string {
  return mime.contentType(path.extname(file)) || 'application/octet-stream';
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

/** A route's source anchored at both ends, as next-on-pages' normalizeRouteSrc makes it. */
function anchored(src: string): string {
  return `${src.startsWith('^') ? '' : '^'}${src}${src.endsWith('$') ? '' : '$'}`;
}

/** The config's routes by phase, as next-on-pages' processVercelConfig groups them. */
function routesByPhase(routes: Route[]): Record<string, Route[]> {
  const phases: Record<string, Route[]> = {
    none: [],
    filesystem: [],
    miss: [],
    rewrite: [],
    resource: [],
    hit: [],
    error: [],
  };
  let phase = 'none';
  for (const route of routes) {
    if (route.handle) phase = route.handle;
    else phases[phase]!.push(route.src ? { ...route, src: anchored(route.src) } : route);
  }
  return phases;
}

/** A module that calls a built handler as Vercel's Node.js launcher does. */
function launcher(dir: string, name: string, handlerFile: string, middleware: boolean): string {
  const file = path.join(dir, `${name.replace(/\//g, '+')}.mjs`);
  const call = `(request) => (typeof handler === 'function' ? handler(request) : handler.fetch(request))`;
  writeFileSync(
    file,
    `import handler from ${JSON.stringify(pathToFileURL(handlerFile).href)};\n` +
      (middleware
        ? // Routing middleware runs once per request on Vercel. The router enters its first phase
          // again after a \`check\` rewrite and would call it again (and apply its rewrite again,
          // in a loop); the first answer is given back, its rewrite already done.
          `const answers = new Map();\n` +
          `export default async (request) => {\n` +
          `  const id = request.headers.get('x-vercel-id');\n` +
          `  const again = answers.has(id);\n` +
          `  if (!again) { answers.set(id, (${call})(request).then(async (r) => ({ status: r.status, headers: [...r.headers], body: await r.arrayBuffer() }))); setTimeout(() => answers.delete(id), 60_000).unref(); }\n` +
          `  const { status, headers, body } = await answers.get(id);\n` +
          `  const replayed = new Headers(headers);\n` +
          `  if (again && replayed.has('x-middleware-rewrite')) { replayed.delete('x-middleware-rewrite'); replayed.set('x-middleware-next', '1'); }\n` +
          `  return new Response(status === 204 || status === 304 || body.byteLength === 0 ? null : body, { status, headers: replayed });\n` +
          `};\n`
        : `export default ${call};\n`),
  );
  return pathToFileURL(file).href;
}

export function buildOutputMap(
  outputDir: string,
  config: { routes: Route[]; overrides?: Record<string, { path?: string; contentType?: string }> },
) {
  const output: Record<string, OutputItem> = {};
  for (const file of filesUnder(path.join(outputDir, 'static'))) output[`/${file}`] = { type: 'static' };
  // Beside the output, so they go when the project copy goes.
  const launchers = path.join(outputDir, '..', 'replay-launchers');
  mkdirSync(launchers, { recursive: true });
  const middlewarePaths = new Set(
    config.routes.map((r) => r.middlewarePath).filter((p): p is string => typeof p === 'string'),
  );
  const functionsDir = path.join(outputDir, 'functions');
  for (const entry of readdirSync(functionsDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isDirectory() || !entry.name.endsWith('.func')) continue;
    const funcDir = path.join(entry.parentPath, entry.name);
    const name = path
      .relative(functionsDir, funcDir)
      .split(path.sep)
      .join('/')
      .replace(/\.func$/, '');
    const vc = JSON.parse(readFileSync(path.join(funcDir, '.vc-config.json'), 'utf8')) as { handler: string };
    const entrypoint = launcher(launchers, name, path.join(funcDir, vc.handler), middlewarePaths.has(name));
    if (middlewarePaths.has(name)) output[name] = { type: 'middleware', entrypoint };
    else output[`/${name}`] = { type: 'function', entrypoint };
  }
  // next-on-pages' applyVercelOverrides: the file is served at its override path, with its type.
  for (const [file, { path: served, contentType }] of Object.entries(config.overrides ?? {})) {
    const item: OutputItem = {
      type: 'override',
      path: `/${file}`,
      ...(contentType ? { headers: { 'content-type': contentType } } : {}),
    };
    if (output[`/${file}`]?.type === 'static') output[`/${file}`] = item;
    if (served !== undefined) output[`/${served}`] = item;
    if (served === 'index') output['/'] = item;
  }
  return output;
}

/** The static files as the CDN holds them: bytes, type by extension, a strong ETag. */
function staticFiles(outputDir: string) {
  const root = path.join(outputDir, 'static');
  const etags = new Map<string, string>();
  const find = (pathname: string): string | null => {
    const decoded = decodeURIComponent(pathname);
    // The router asks for `/a` when it means `a.html`, and `/` for `index.html` (Pages' asset naming).
    for (const candidate of [decoded, `${decoded}.html`, `${decoded.replace(/\/$/, '')}/index.html`]) {
      const full = path.join(root, path.normalize(candidate));
      if (full.startsWith(root + path.sep) && existsSync(full) && statSync(full).isFile()) return full;
    }
    return null;
  };
  return {
    async fetch(input: Request | string): Promise<Response> {
      const request = typeof input === 'string' ? new Request(input) : input;
      const file = find(new URL(request.url).pathname);
      if (!file) return new Response('Not Found', { status: 404 });
      const body = readFileSync(file);
      let etag = etags.get(file);
      if (!etag) etags.set(file, (etag = `"${createHash('sha1').update(body).digest('hex')}"`));
      return new Response(body, { headers: { 'content-type': typeByExtension(file), etag } });
    },
  };
}

let requestCount = 0;

function requestOf(req: IncomingMessage, port: number): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  // The platform says who the client is; whatever the client sent is replaced.
  const client = req.socket.remoteAddress ?? '127.0.0.1';
  for (const name of ['x-real-ip', 'x-forwarded-for', 'x-vercel-forwarded-for']) headers.set(name, client);
  headers.set('x-vercel-id', `replay::${(requestCount += 1)}`);
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (method !== 'GET' && method !== 'HEAD') Object.assign(init, { body: req, duplex: 'half' });
  return new Request(`http://127.0.0.1:${port}${req.url ?? '/'}`, init);
}

function notModified(request: Request, response: Response): boolean {
  const etag = response.headers.get('etag');
  const condition = request.headers.get('if-none-match');
  if (!etag || !condition || response.status !== 200 || !['GET', 'HEAD'].includes(request.method)) return false;
  return condition
    .split(',')
    .some((tag) => tag.trim().replace(/^W\//, '') === etag.replace(/^W\//, '') || tag.trim() === '*');
}

export async function serveReplay(outputDir: string, port: number) {
  const { handleRequest } = (await import(pathToFileURL(await routerModule()).href)) as {
    handleRequest: (ctx: unknown, config: unknown, output: unknown, metadata: unknown) => Promise<Response>;
  };
  const config = JSON.parse(readFileSync(path.join(outputDir, 'config.json'), 'utf8')) as {
    routes: Route[];
    overrides?: Record<string, { path?: string; contentType?: string }>;
  };
  const processed = { ...config, routes: routesByPhase(config.routes) };
  const output = buildOutputMap(outputDir, config);
  const assetsFetcher = staticFiles(outputDir);
  const server = createServer((req, res) => {
    void (async () => {
      const request = requestOf(req, port);
      const ctx = { waitUntil: () => {}, passThroughOnException: () => {} };
      // The router reads the request more than once (middleware, then a function): it gets a copy.
      const response = await handleRequest({ request: request.clone(), assetsFetcher, ctx }, processed, output, {
        collectedLocales: [],
      });
      const headers = new Headers(response.headers);
      if (!headers.has('cache-control')) headers.set('cache-control', vercelDefaultCacheControl);
      const status = notModified(request, response) ? 304 : response.status;
      if (status === 304) for (const name of representationHeaders) headers.delete(name);
      const body = status === 304 || request.method === 'HEAD' ? null : Buffer.from(await response.arrayBuffer());
      headers.delete('content-length');
      headers.delete('transfer-encoding');
      const raw: string[] = [];
      for (const [name, value] of headers) if (!name.startsWith('x-middleware-')) raw.push(name, value);
      if (body) raw.push('content-length', String(body.length));
      res.writeHead(status, raw);
      res.end(body ?? undefined);
    })().catch((error: unknown) => {
      console.error(`[replay] ${req.method} ${req.url}:`, error);
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('replay failed\n');
    });
  });
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  return server;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const [outputDir, port] = process.argv.slice(2);
  await serveReplay(path.resolve(outputDir!), Number(port));
  console.log(`replay listening on ${port}`);
}
