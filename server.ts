/**
 * The local (and any self-hosted Node) host: request rules first, then the static files Astro
 * built, then Astro's handler for the on-demand routes, then the 404 note.
 * Run with `npm start`; settings come from the environment (see .env.example).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import compression from 'compression';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { readSettings, SettingsError, type Settings } from './service/config.ts';
import { applyRules } from './service/rules/index.ts';
import { apiRateLimit } from './service/rules/policy.ts';
import { createRateLimiter, MemoryCounterStore, type CounterStore } from './service/rules/rate-limiter.ts';
import { StaticFiles } from './service/host/static-files.ts';
import { answerAndClose, answerClientError, methodRefusal, unrepresentableMethods, type RefusalContext } from './service/host/client-errors.ts';
import { securityHeaders } from './service/rules/security-headers.ts';
import { closeHostedDatabases } from './service/departures/embedded.ts';
import { openOperationalStorage } from './service/storage.ts';
import { extensionlessMediaTypes } from './service/site-files.ts';

const root = path.dirname(fileURLToPath(import.meta.url));

const compressResponses = compression({ threshold: 1024 });

type AstroHandler = (req: IncomingMessage, res: ServerResponse, next: () => void) => Promise<void>;

function requestHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

function webRequest(req: IncomingMessage, origin: string): Request {
  const headers = requestHeaders(req);
  // A path like `//v1/trips` must stay a path: resolved against the origin it would name a host.
  const target = req.url ?? '/';
  const url = target.startsWith('/') ? new URL(origin + target) : new URL(target, origin);
  return new Request(url, { method: req.method ?? 'GET', headers });
}

async function writeWebResponse(res: ServerResponse, response: Response, method: string): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (method === 'HEAD' || response.body === null) {
    res.end();
    return;
  }
  res.end(Buffer.from(await response.arrayBuffer()));
}

export interface ServerOptions {
  settings: Settings;
  counterStore?: CounterStore;
}

export async function startServer({ settings, counterStore }: ServerOptions) {
  const clientDir = path.join(root, 'dist', 'client');
  const { handler } = (await import(path.join(root, 'dist', 'server', 'entry.mjs'))) as { handler: AstroHandler };
  // Published files without an extension (the API catalog, the server card) name their type in service/site-files.ts.
  const files = new StaticFiles(clientDir, extensionlessMediaTypes());
  const store = counterStore ?? (await openCounterStore(settings));
  const apiLimiter = createRateLimiter(apiRateLimit, store);
  const origin = `http://${settings.HOST}:${settings.PORT}`;
  const rulesFor = (socketAddress: string | undefined) => (request: Request) =>
    applyRules(request, { siteUrl: settings.siteUrl, apiLimiter, trustProxy: settings.TRUST_PROXY ?? 'none', socketAddress });
  const refusals = (socketAddress: string | undefined): RefusalContext => ({
    siteUrl: settings.siteUrl,
    origin,
    securityHeaders: securityHeaders({ https: settings.siteUrl.startsWith('https:') }),
    rules: rulesFor(socketAddress),
  });

  // Header timeouts are enforced on this interval; Node's default (30 s) would let a client
  // dribbling its headers hold a connection for up to 40 s instead of headersTimeout.
  const server = createServer({ connectionsCheckingInterval: 1_000 }, async (req, res) => {
    const method = req.method ?? 'GET';
    try {
      // A web Request cannot carry these methods; they are refused as unknown ones are.
      if (unrepresentableMethods.has(method)) {
        await writeWebResponse(res, await methodRefusal(method, req.url ?? '/', requestHeaders(req), refusals(req.socket.remoteAddress)), method);
        return;
      }
      const request = webRequest(req, origin);
      const outcome = await rulesFor(req.socket.remoteAddress)(request);
      if (outcome.kind === 'respond') {
        await writeWebResponse(res, outcome.response, method);
        return;
      }
      outcome.headers.forEach((value, name) => res.setHeader(name, value));
      // Astro's handler gets the path as the rules read it (backslashes and dot segments
      // resolved), with repeated trailing slashes folded: it answers those with an HTML
      // redirect page, which under /v1 would break the API's one error shape.
      const target = outcome.pathname.replace(/\/{2,}$/, '/') + new URL(request.url).search;
      if (target !== req.url) req.url = target;
      if ((method === 'GET' || method === 'HEAD') && (await files.serve(outcome.pathname, req, res))) return;
      // Pages rendered per request (trip pages, indexes, twins) are compressed on the fly;
      // static files come precompressed from StaticFiles.
      await new Promise<void>((resolve, reject) => {
        compressResponses(req as never, res as never, () => {
          handler(req, res, () => {
            void files.notFound(req, res, outcome.pathname.endsWith('.md'));
          }).then(resolve, reject);
        });
      });
    } catch (error) {
      console.error(`[server] ${method} ${req.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) {
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('Something went wrong on our side. Please try again in a minute.\n');
      } else {
        res.destroy();
      }
    }
  });
  // What Node's parser refuses (unknown methods, malformed requests, oversized or slow headers)
  // gets a defined answer instead of a bare 400; CONNECT would otherwise be dropped unanswered.
  server.on('clientError', (error: Error, socket: Socket) => answerClientError(error, socket, refusals(socket.remoteAddress)));
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    methodRefusal('CONNECT', req.url ?? '/', requestHeaders(req), refusals(socket.remoteAddress))
      .then((response) => answerAndClose(socket, response))
      .catch(() => socket.destroy());
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  await hostEmbeddedDatabase(settings, server);
  await new Promise<void>((resolve) => server.listen(settings.PORT, settings.HOST, resolve));
  return server;
}

/**
 * With OPERATIONAL_STORAGE=embedded this process hosts the PGlite database from the start, so
 * the departures CLI can reach it while the site runs (service/departures/embedded.ts). The host
 * file is removed and the database closed when the server stops.
 */
async function hostEmbeddedDatabase(settings: Settings, server: ReturnType<typeof createServer>): Promise<void> {
  if (settings.OPERATIONAL_STORAGE !== 'embedded') return;
  try {
    await openOperationalStorage(settings);
  } catch (error) {
    // The site still starts; departures answer 502 and the database is opened again per request.
    console.error(`[departures] embedded database not opened yet: ${error instanceof Error ? error.message : String(error)}`);
  }
  const stop = () => {
    server.close();
    server.closeAllConnections();
    void closeHostedDatabases().finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  server.once('close', () => void closeHostedDatabases());
}

async function openCounterStore(settings: Settings): Promise<CounterStore> {
  if (!settings.REDIS_URL) return new MemoryCounterStore();
  const { RedisCounterStore } = await import('./service/rules/redis-counter-store.ts');
  return RedisCounterStore.connect(settings.REDIS_URL);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const settings = readSettings();
    await startServer({ settings });
    console.log(`Serving the site and API on ${settings.siteUrl} (listening on ${settings.HOST}:${settings.PORT})`);
  } catch (error) {
    console.error(error instanceof SettingsError ? error.message : error);
    process.exit(1);
  }
}
