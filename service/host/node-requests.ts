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
import { clientIp, type ProxyTrust } from '../rules/client-ip.ts';
import type { RulesRequest } from '../rules/index.ts';

/** Headers a client must not be able to set: the host says who the client is (as Vercel does). */
export const forwardingHeaders = ['x-real-ip', 'x-forwarded-for', 'x-vercel-forwarded-for'];

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

/** `headers` as the rules see them: X-Real-IP is `client`, the other forwarding headers are gone. */
export function asSeenByRules(
  headers: { get(name: string): string | null },
  client: string,
): { get(name: string): string | null } {
  return {
    get(name: string): string | null {
      const key = name.toLowerCase();
      if (key === 'x-real-ip') return client;
      if (forwardingHeaders.includes(key)) return null;
      return headers.get(key);
    },
  };
}

export interface NodeRequests {
  /** Who the client is. */
  clientOf(req: IncomingMessage): string;
  /** What the rules read of a request, straight from Node's parsed headers (a web Request costs more than serving a file). */
  rulesView(req: IncomingMessage, client: string): RulesRequest & { parsedUrl: URL };
  /** The request as a function sees it: the address asked for, and who the client is, said by this host only. */
  webRequest(req: IncomingMessage, client: string): Request;
}

/** The reader of requests to a host listening at `origin`, trusting `trust` for the client's address. */
export function nodeRequests({ origin, trust }: { origin: string; trust: ProxyTrust }): NodeRequests {
  /** Each connection's client when only the socket says who it is: worked out once per connection. */
  const socketClients = new WeakMap<Socket, string>();

  // A path like `//v1/trips` must stay a path: resolved against the origin it would name a host.
  // Parsed once per request target (bounded); the URL is read, never changed, by the host, the
  // rules and the functions (service/http/request-url.ts).
  const absoluteUrl = memoise((target: string) =>
    target.startsWith('/') ? new URL(origin + target) : new URL(target, origin),
  );

  return {
    clientOf(req) {
      if (trust === 'none') {
        let client = socketClients.get(req.socket);
        if (client === undefined) {
          client = clientIp({ headers: { get: () => null } }, trust, req.socket.remoteAddress);
          socketClients.set(req.socket, client);
        }
        return client;
      }
      return clientIp({ headers: { get: (name) => nodeHeader(req, name) } }, trust, req.socket.remoteAddress);
    },
    rulesView(req, client) {
      const parsedUrl = absoluteUrl(req.url ?? '/');
      return {
        url: parsedUrl.href,
        parsedUrl,
        method: req.method ?? 'GET',
        headers: asSeenByRules({ get: (name) => nodeHeader(req, name) }, client),
      };
    },
    webRequest(req, client) {
      const headers = requestHeaders(req);
      for (const name of forwardingHeaders) headers.delete(name);
      headers.set('x-real-ip', client);
      const method = req.method ?? 'GET';
      const init: RequestInit & { duplex?: 'half' } = { method, headers };
      if (method !== 'GET' && method !== 'HEAD') Object.assign(init, { body: req, duplex: 'half' });
      const url = absoluteUrl(req.url ?? '/');
      return withUrl(new Request(url.href, init), url);
    },
  };
}
