/**
 * A request's address, parsed once. The Node host parses each request target once (and keeps
 * the parse of a target it has seen, service/host/node-requests.ts) and hands its functions that URL with the web
 * Request; the rules, the functions and the /v1 handler all read it from here instead of parsing
 * `request.url` again. A request the host did not make (Vercel's, a test's) is parsed here, once.
 * The URL is read, never changed.
 */
import { KeptWith } from './bounded-memo.ts';

const parsed = new KeptWith((request: Request) => new URL(request.url));

export function requestUrl(request: Request): URL {
  return parsed.get(request);
}

/** `request`, whose address is `url` already parsed. */
export function withUrl(request: Request, url: URL): Request {
  parsed.set(request, url);
  return request;
}
