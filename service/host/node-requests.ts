/**
 * How the Node host reads a request from Node's HTTP server: who the client is (the socket's
 * address, or Vercel's header when this host runs behind Vercel), the address parsed once per
 * request target, the light view the request rules read, and the web Request a function gets.
 * X-Real-IP is this host's word alone, whatever the client sent, as on Vercel.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { memoise } from '../http/bounded-memo.ts';
import { withUrl } from '../http/request-url.ts';
import { clientIp, clientQuotaKey, type ProxyTrust } from '../rules/client-ip.ts';
import type { RulesRequest } from '../rules/index.ts';
import { lowerCase } from './static-files.ts';

/** Headers a client must not be able to set: the host says who the client is (as Vercel does). */
const forwardingHeaders = ['x-real-ip', 'x-forwarded-for', 'x-vercel-forwarded-for'];

/** A request's headers as a web Headers object; a value a web Request refuses is left out. */
export function requestHeaders(req: IncomingMessage): Headers {
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

function nodeHeader(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
}

/**
 * What the host says of a forwarding header (`key` in lower case): X-Real-IP is `client`, the
 * others are gone; undefined for any other header, which the request itself answers.
 */
function hostSays(key: string, client: string): string | null | undefined {
  if (key === 'x-real-ip') return client;
  if (forwardingHeaders.includes(key)) return null;
  return undefined;
}

/** `headers` as the rules see them: X-Real-IP is `client`, the other forwarding headers are gone. */
export function asSeenByRules(
  headers: { get(name: string): string | null },
  client: string,
): { get(name: string): string | null } {
  return {
    get(name: string): string | null {
      const key = lowerCase(name);
      const said = hostSays(key, client);
      return said === undefined ? headers.get(key) : said;
    },
  };
}

/** A request target, parsed. */
interface Target {
  url: URL;
  href: string;
  pathname: string;
}

/** What the rules read of a Node request (RulesRequest), read from Node's parsed request as they ask: no object or closure made per header. */
class NodeRulesView implements RulesRequest {
  readonly url: string;
  readonly method: string;
  readonly parsedUrl: URL;
  readonly pathname: string;
  readonly clientKey: string;
  readonly #req: IncomingMessage;
  readonly #client: string;

  constructor(req: IncomingMessage, client: string, clientKey: string, target: Target) {
    this.#req = req;
    this.#client = client;
    this.clientKey = clientKey;
    this.parsedUrl = target.url;
    this.pathname = target.pathname;
    this.url = target.href;
    this.method = req.method ?? 'GET';
  }

  /** The headers as in asSeenByRules: X-Real-IP is the client, the other forwarding headers are gone. */
  get headers(): { get(name: string): string | null } {
    return this;
  }

  get(name: string): string | null {
    const key = lowerCase(name);
    const said = hostSays(key, this.#client);
    return said === undefined ? nodeHeader(this.#req, key) : said;
  }
}

export interface NodeRequests {
  /** Who the client is. */
  clientOf(req: IncomingMessage): string;
  /** The key the client's quotas and turns are counted under (service/rules/client-ip.ts). */
  clientKeyOf(req: IncomingMessage): string;
  /** What the rules read of a request, straight from Node's parsed headers (a web Request costs more than serving a file). */
  rulesView(req: IncomingMessage): RulesRequest & { parsedUrl: URL; pathname: string; clientKey: string };
  /** The request as a function sees it: the address asked for, and who the client is, said by this host only. */
  webRequest(req: IncomingMessage, client: string): Request;
}

/** The reader of requests to a host listening at `origin`, trusting `trust` for the client's address. */
export function nodeRequests({ origin, trust }: { origin: string; trust: ProxyTrust }): NodeRequests {
  /** Each connection's client and key when only the socket says who it is: worked out once per connection. */
  const socketClients = new WeakMap<Socket, { client: string; key: string }>();
  const clientOf = (req: IncomingMessage): { client: string; key: string } => {
    if (trust === 'none') {
      let known = socketClients.get(req.socket);
      if (known === undefined) {
        const client = clientIp({ headers: { get: () => null } }, trust, req.socket.remoteAddress);
        known = { client, key: clientQuotaKey(client) };
        socketClients.set(req.socket, known);
      }
      return known;
    }
    const client = clientIp({ headers: { get: (name) => nodeHeader(req, name) } }, trust, req.socket.remoteAddress);
    return { client, key: clientQuotaKey(client) };
  };

  // A path like `//v1/trips` must stay a path: resolved against the origin it would name a host.
  // Parsed once per request target (bounded); the URL is read, never changed, by the host, the
  // rules and the functions (service/http/request-url.ts). Its address and path are read once
  // too: the same strings every time, whose hashes the lookups by them keep.
  const parsedTarget = memoise((target: string): Target => {
    const url = target.startsWith('/') ? new URL(origin + target) : new URL(target, origin);
    return { url, href: url.href, pathname: url.pathname };
  });

  return {
    clientOf: (req) => clientOf(req).client,
    clientKeyOf: (req) => clientOf(req).key,
    rulesView(req) {
      const { client, key } = clientOf(req);
      return new NodeRulesView(req, client, key, parsedTarget(req.url ?? '/'));
    },
    webRequest(req, client) {
      const headers = requestHeaders(req);
      for (const name of forwardingHeaders) headers.delete(name);
      headers.set('x-real-ip', client);
      const method = req.method ?? 'GET';
      const init: RequestInit & { duplex?: 'half' } = { method, headers };
      if (method !== 'GET' && method !== 'HEAD') Object.assign(init, { body: req, duplex: 'half' });
      const { url, href } = parsedTarget(req.url ?? '/');
      return withUrl(new Request(href, init), url);
    },
  };
}
