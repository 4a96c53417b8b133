/**
 * The local (and any self-hosted Node) host, shaped like the Vercel deployment: the request rules
 * (what middleware.ts runs on Vercel), then the files Astro built into dist/site, then the live
 * functions of api/, routed by the same table (vercel.json and the build's own routes; see
 * service/host/router.ts). Run with `npm start`; settings come from the environment (see
 * .env.example).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { readSettings, SettingsError, type Settings } from './service/config.ts';
import { applyRules, type RulesOutcome, type RulesRequest } from './service/rules/index.ts';
import { apiRateLimit } from './service/rules/policy.ts';
import { clientIp, clientQuotaKey } from './service/rules/client-ip.ts';
import { openCounterStore, useCounterStore } from './service/rules/counter-stores.ts';
import { createRateLimiter, type CounterStore } from './service/rules/rate-limiter.ts';
import { securityHeaders } from './service/rules/security-headers.ts';
import { lowerCase, StaticFiles } from './service/host/static-files.ts';
import { FunctionHost } from './service/host/functions.ts';
import { applyEarlyRoutes, fileHeaders, loadRouteTable, resolve, type Destination } from './service/host/router.ts';
import { writeWebResponse } from './service/host/web-response.ts';
import { EdgeCache, type KeptResponse } from './service/host/edge-cache.ts';
import { FairQueue } from './service/host/fair-queue.ts';
import { canonicalLivePath } from './service/functions/live-queries.ts';
import { isApiPath } from './service/v1/path.ts';
import { matchesEtag } from './service/http/respond.ts';
import { notModifiedRaw } from './service/http/not-modified.ts';
import { answerAndClose, answerClientError, hostHeaderRefusal, methodRefusal, plainAnswer, unrepresentableMethods, type RefusalContext } from './service/host/client-errors.ts';
import { closeHostedDatabases } from './service/departures/embedded.ts';
import { openOperationalStorage } from './service/storage.ts';
import { prepareDataDir } from './service/data-dir.ts';
import { memoise } from './service/http/bounded-memo.ts';

const root = path.dirname(fileURLToPath(import.meta.url));

/** Headers a client must not be able to set: the host says who the client is (as Vercel does). */
const forwardingHeaders = ['x-real-ip', 'x-forwarded-for', 'x-vercel-forwarded-for'];

function requestHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // a header value a web Request refuses is left out
    }
  }
  return headers;
}

export interface ServerOptions {
  settings: Settings;
  counterStore?: CounterStore;
  /** How long a client may take to send a request's headers (tests shorten it), and how often that is checked. */
  headersTimeoutMs?: number;
  connectionsCheckingIntervalMs?: number;
}

export async function startServer({ settings, counterStore, headersTimeoutMs = 10_000, connectionsCheckingIntervalMs = 1_000 }: ServerOptions) {
  // Local data (the embedded database, the outbox, keys) is private to this account.
  prepareDataDir(settings);
  const siteDir = path.join(root, 'dist', 'site');
  const table = loadRouteTable(root);
  const files = new StaticFiles(siteDir);
  const functions = new FunctionHost(path.join(root, 'api'));
  const fs = { hasFile: (p: string) => files.has(p), functionAt: (p: string) => functions.functionAt(p) };
  const store = counterStore ?? (await openCounterStore(process.env));
  // The rules and the functions of this process count one client in one place.
  useCounterStore(store);
  const apiLimiter = createRateLimiter(apiRateLimit, store);
  const origin = `http://${settings.HOST}:${settings.PORT}`;
  const baseHeaders = securityHeaders({ https: settings.siteUrl.startsWith('https:') });
  // Function answers a shared cache may keep, kept here as Vercel's CDN keeps them.
  const edge = new EdgeCache();
  // Reads are taken in turn by client, up to four of one client at once (so one slow read, say a
  // storage timeout, does not hold a page's other files); those that reach a function (renders,
  // mostly) one per client and four in all.
  const clientTurns = new FairQueue({ concurrency: Infinity, perClient: 4 });
  const turns = new FairQueue();
  const trust = settings.TRUST_PROXY ?? 'none';

  /** Each connection's client when only the socket says who it is: worked out once per connection. */
  const socketClients = new WeakMap<Socket, string>();

  /** Who the client is: the socket's address, or Vercel's header when this host runs behind Vercel. */
  function clientOfNode(req: IncomingMessage): string {
    if (trust === 'none') {
      let client = socketClients.get(req.socket);
      if (client === undefined) {
        client = clientIp({ headers: { get: () => null } }, trust, req.socket.remoteAddress);
        socketClients.set(req.socket, client);
      }
      return client;
    }
    const header = (name: string) => {
      const value = req.headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    };
    return clientIp({ headers: { get: header } }, trust, req.socket.remoteAddress);
  }

  /**
   * What the rules read of a request, straight from Node's parsed headers (a web Request costs
   * more than serving a file). X-Real-IP is this host's word, whatever the client sent.
   */
  function rulesView(req: IncomingMessage, client: string): RulesRequest & { parsedUrl: URL } {
    const parsedUrl = absoluteUrl(req.url ?? '/');
    return {
      url: parsedUrl.href,
      parsedUrl,
      method: req.method ?? 'GET',
      headers: {
        get(name: string): string | null {
          const key = name.toLowerCase();
          if (key === 'x-real-ip') return client;
          if (forwardingHeaders.includes(key)) return null;
          const value = req.headers[key];
          return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
        },
      },
    };
  }

  // A path like `//v1/trips` must stay a path: resolved against the origin it would name a host.
  // Parsed once per request target (bounded); the URL is read, never changed, by the host and rules.
  const absoluteUrl = memoise((target: string) => (target.startsWith('/') ? new URL(origin + target) : new URL(target, origin)));
  const earlyRoutes = memoise((pathname: string) => applyEarlyRoutes(table, pathname));

  /** The request as a function sees it: the address asked for, and who the client is, said by this host only. */
  function webRequest(req: IncomingMessage, client: string): Request {
    const headers = requestHeaders(req);
    for (const name of forwardingHeaders) headers.delete(name);
    headers.set('x-real-ip', client);
    const method = req.method ?? 'GET';
    const init: RequestInit & { duplex?: 'half' } = { method, headers };
    if (method !== 'GET' && method !== 'HEAD') Object.assign(init, { body: req, duplex: 'half' });
    return new Request(absoluteUrl(req.url ?? '/').href, init);
  }

  /**
   * Where a path goes, and the build's headers for a file, worked out once per path: the files
   * and functions are fixed while the server runs.
   */
  const destinationOf = memoise((pathname: string): Destination & { headers?: Record<string, string> } => {
    const destination = resolve(table, fs, pathname);
    if (destination.kind !== 'file') return destination;
    return { ...destination, headers: { ...fileHeaders(table, destination.pathname), ...(destination.status === 404 ? { 'Cache-Control': 'no-store' } : {}) } };
  });

  const rules = (request: RulesRequest): Promise<RulesOutcome> => applyRules(request, { siteUrl: settings.siteUrl, apiLimiter, trustProxy: 'vercel' });
  const refusals = (socketAddress: string | undefined): RefusalContext => ({
    siteUrl: settings.siteUrl,
    origin,
    securityHeaders: baseHeaders,
    rules: (request) => {
      const client = clientIp(request, trust, socketAddress);
      return rules({ url: request.url, method: request.method, headers: { get: (name) => (name.toLowerCase() === 'x-real-ip' ? client : forwardingHeaders.includes(name.toLowerCase()) ? null : request.headers.get(name)) } });
    },
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refusedHost = hostHeaderRefusal(req, { securityHeaders: baseHeaders });
    if (refusedHost) {
      await writeWebResponse(req, res, refusedHost);
      return;
    }
    const method = req.method ?? 'GET';
    // A web Request cannot carry these methods; they are refused as unknown ones are.
    if (unrepresentableMethods.has(method)) {
      await writeWebResponse(req, res, await methodRefusal(method, req.url ?? '/', requestHeaders(req), refusals(req.socket.remoteAddress)));
      return;
    }
    const client = clientOfNode(req);
    const view = rulesView(req, client);
    const early = earlyRoutes(view.parsedUrl.pathname);
    if (early.redirect) {
      await writeWebResponse(req, res, plainAnswer(early.redirect.status, `Moved to ${early.redirect.location}`, { securityHeaders: baseHeaders }, { Location: early.redirect.location }));
      return;
    }
    const outcome = await rules(view);
    if (outcome.kind === 'respond') {
      await writeWebResponse(req, res, outcome.response);
      return;
    }
    const destination = destinationOf(outcome.pathname);
    if (destination.kind === 'function') {
      const read = method === 'GET' || method === 'HEAD';
      const header = (name: string) => view.headers.get(name);
      // A live page is kept under its path and declared query: other parameters make no new answer.
      const key = isApiPath(view.parsedUrl.pathname) ? view.url : canonicalLivePath(view.parsedUrl);
      const kept = read ? edge.get(key, header) : null;
      if (kept) {
        await sendKept(req, res, edge, kept, outcome.headers, edge.ageOf(kept));
        return;
      }
      // Functions see the address the client asked for, as on Vercel, and read it themselves.
      const call = async (): Promise<Response | KeptResponse> => {
        const response = await functions.call(destination.name, webRequest(req, client));
        if (method !== 'GET' || response.status !== 200 || !response.body) return response;
        const headers: Record<string, string> = {};
        for (const [name, value] of response.headers) headers[name] = value;
        return edge.put(key, header, 200, headers, Buffer.from(await response.arrayBuffer()));
      };
      const answer = read ? await turns.run(clientQuotaKey(client), call) : await call();
      if (!(answer instanceof Response)) {
        await sendKept(req, res, edge, answer, outcome.headers);
        return;
      }
      for (const [name, value] of Object.entries(outcome.headers)) if (!answer.headers.has(name)) answer.headers.set(name, value);
      await writeWebResponse(req, res, answer);
      return;
    }
    if (destination.kind === 'file') {
      if (method !== 'GET' && method !== 'HEAD') {
        await writeWebResponse(req, res, plainAnswer(405, `${method.slice(0, 20)} is not allowed here: this address is a page or a file, read with GET.`, { securityHeaders: baseHeaders }, { Allow: 'GET, HEAD' }));
        return;
      }
      const headers = { ...outcome.headers, ...destination.headers };
      if (await files.serve(destination.pathname, req, res, destination.status, headers)) return;
      // A built file that can no longer be read (the folder changed under the server) is answered, never left hanging.
      await writeWebResponse(req, res, plainAnswer(503, 'This file cannot be read just now. Please try again in a minute.', { securityHeaders: baseHeaders }));
      return;
    }
    await writeWebResponse(req, res, plainAnswer(404, 'Not found. See /sitemap-index.xml, /developers and /llms.txt.', { securityHeaders: baseHeaders }));
  }

  // Header timeouts are enforced on this interval; Node's default (30 s) would let a client
  // dribbling its headers hold a connection for up to 40 s instead of headersTimeout.
  // A request without a Host header is refused by the host itself (hostHeaderRefusal), with
  // the headers every answer carries, rather than by Node with a bare 400.
  const server = createServer({ connectionsCheckingInterval: connectionsCheckingIntervalMs, requireHostHeader: false }, (req, res) => {
    // A client's reads are served in turn with other clients' (requests with a body are not held
    // in line: see service/host/fair-queue.ts).
    const read = req.method === 'GET' || req.method === 'HEAD';
    const served = read ? clientTurns.run(clientQuotaKey(clientOfNode(req)), () => handle(req, res)) : handle(req, res);
    served.catch((error: unknown) => {
      console.error(`[server] ${req.method} ${req.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) {
        res.writeHead(500, { ...baseHeaders, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end('Something went wrong on our side. Please try again in a minute.\n');
      } else {
        res.destroy();
      }
    });
  });
  // What Node's parser refuses (unknown methods, malformed requests, oversized or slow headers)
  // gets a defined answer instead of a bare 400; CONNECT would otherwise be dropped unanswered.
  server.on('clientError', (error: Error, socket: Socket) => answerClientError(error, socket, refusals(socket.remoteAddress)));
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    methodRefusal('CONNECT', req.url ?? '/', requestHeaders(req), refusals(socket.remoteAddress))
      .then((response) => answerAndClose(socket, response))
      .catch(() => socket.destroy());
  });
  server.headersTimeout = headersTimeoutMs;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  await hostEmbeddedDatabase(settings, server);
  await new Promise<void>((done) => server.listen(settings.PORT, settings.HOST, done));
  return server;
}

/**
 * Sends a function's answer (kept or just made) with the rules' headers where the function set
 * none and, when it comes from the cache, its Age, answering a matching If-None-Match with 304
 * and compressing when the client accepts it. The headers go to Node as one flat list, the kept
 * answer's own part made once.
 */
async function sendKept(req: IncomingMessage, res: ServerResponse, edge: EdgeCache, kept: KeptResponse, ruleHeaders: Record<string, string>, age = 0): Promise<void> {
  const own = (kept.raw ??= Object.entries(kept.headers)
    .filter(([name]) => name !== 'content-length' && name !== 'vary')
    .flat());
  const raw = own.slice();
  if (age > 0) raw.push('age', String(age));
  for (const name in ruleHeaders) if (!(lowerCase(name) in kept.headers)) raw.push(name, ruleHeaders[name]!);
  const etag = kept.headers.etag;
  if (etag && matchesEtag(req.headers['if-none-match'] ?? null, etag)) {
    if (kept.headers.vary) raw.push('vary', kept.headers.vary);
    res.writeHead(304, notModifiedRaw(raw));
    res.end();
    return;
  }
  const encoded = edge.encodedBody(kept, String(req.headers['accept-encoding'] ?? ''));
  const { body, encoding } = encoded instanceof Promise ? await encoded : encoded;
  const vary = encoding ? [kept.headers.vary, 'Accept-Encoding'].filter(Boolean).join(', ') : kept.headers.vary;
  if (vary) raw.push('vary', vary);
  if (encoding) raw.push('content-encoding', encoding);
  raw.push('content-length', String(body.length));
  res.writeHead(kept.status, raw);
  res.end(req.method === 'HEAD' ? undefined : body);
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
