/**
 * Requests the Node host cannot hand to the rules as they are: what Node's HTTP parser refuses
 * before server.ts sees it (an unknown or lower-case method token, a malformed request line or
 * header, headers too large or too slow), and the methods a web Request cannot carry (CONNECT,
 * TRACE, TRACK). Each gets a short, defined answer instead of Node's bare 400 or a 500, and
 * the connection is closed. Under /v1 a method the API does not take is its
 * 405 method_not_allowed in the contract's error shape, counted against the quota like any
 * other /v1 request.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError, errorResponse } from '../http/errors.ts';
import { isApiPath, type RulesOutcome } from '../rules/index.ts';
import { allowedMethods } from '../v1/index.ts';
import { cachePolicy } from '../http/cache-policy.ts';

/** Methods undici's Request refuses to carry, so they never reach the rules. */
export const unrepresentableMethods = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** What the site answers at all: pages and files take GET and HEAD, forms and endpoints POST. */
const siteMethods = 'GET, HEAD, OPTIONS, POST';

const methodToken = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

interface RequestHead {
  method: string;
  /** The request target in origin form (`/path?query`). */
  target: string;
  headers: Headers;
}

/** The request line and readable headers of raw request bytes, when the request line is well formed. */
function requestHead(raw: Buffer | undefined): RequestHead | null {
  if (!raw) return null;
  const lines = raw.toString('latin1').split('\n');
  const line = /^(\S+) (\/\S*) HTTP\/1\.[01]\r?$/.exec(lines[0] ?? '');
  if (!line || !methodToken.test(line[1]!) || lines.length < 2) return null;
  const headers = new Headers();
  for (const text of lines.slice(1)) {
    const header = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[ \t]*(.*?)[ \t]*\r?$/.exec(text);
    if (!header) break;
    try {
      headers.append(header[1]!, header[2]!);
    } catch {
      // a value a Headers object refuses is left out; these headers only identify the client
    }
  }
  return { method: line[1]!, target: line[2]!, headers };
}

export interface RefusalContext {
  siteUrl: string;
  /** Where the host listens, to resolve a request target. */
  origin: string;
  /** The headers every response carries (service/rules/security-headers.ts). */
  securityHeaders: Record<string, string>;
  /** The request rules, as the host applies them to a request from this client. */
  rules(request: Request): Promise<RulesOutcome>;
}

export function plainAnswer(
  status: number,
  text: string,
  ctx: Pick<RefusalContext, 'securityHeaders'>,
  headers: Record<string, string> = {},
): Response {
  return new Response(`${text}\n`, {
    status,
    headers: {
      ...ctx.securityHeaders,
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': cachePolicy.never,
      ...headers,
    },
  });
}

/**
 * A request that does not say which host it is for, or says it twice: RFC 9112 (section 3.2)
 * asks a server to answer 400 to an HTTP/1.1 request with no Host header and to any request
 * with more than one. Node would answer the first itself, without the headers every answer
 * carries, and keep only the first of two Host headers; the host refuses both here instead.
 * `rawHeaders` is Node's flat list of names and values as they arrived.
 */
export function hostHeaderRefusal(
  request: { httpVersion: string; rawHeaders: readonly string[] },
  ctx: Pick<RefusalContext, 'securityHeaders'>,
): Response | null {
  // Counted in one pass over the raw headers: this runs for every request.
  const raw = request.rawHeaders;
  let hosts = 0;
  let named = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') {
      hosts += 1;
      if (raw[i + 1] !== '') named = true;
    }
  }
  if (hosts > 1)
    return plainAnswer(
      400,
      'The request names its host more than once (several Host headers): send exactly one.',
      ctx,
      { Connection: 'close' },
    );
  if (!named && request.httpVersion !== '1.0')
    return plainAnswer(400, 'The request does not say which host it is for: HTTP/1.1 requires a Host header.', ctx, {
      Connection: 'close',
    });
  return null;
}

/** 405 for a method this site does not answer: the API's error under /v1, a sentence elsewhere. */
export async function methodRefusal(
  method: string,
  target: string,
  headers: Headers,
  ctx: RefusalContext,
): Promise<Response> {
  const shown = method.slice(0, 20);
  let url: URL | null = null;
  try {
    url = new URL(ctx.origin + target);
  } catch {
    // an unusable target is refused for its method all the same
  }
  if (url && isApiPath(url.pathname)) {
    // The rules count the request and give the rate-limit, CORS and security headers; the
    // method of the Request they see does not matter to them under /v1.
    const outcome = await ctx.rules(new Request(url, { headers }));
    if (outcome.kind === 'respond') return outcome.response;
    const response = errorResponse(
      new ApiError('method_not_allowed', {
        message: `${shown} is not allowed: the API is read-only.`,
        hint: 'Use GET (or HEAD). Enquiries go to POST /api/bookings, outside the versioned API.',
        headers: { Allow: allowedMethods },
      }),
      ctx.siteUrl,
    );
    for (const [name, value] of Object.entries(outcome.headers)) response.headers.set(name, value);
    return response;
  }
  return plainAnswer(
    405,
    `${shown} is not a method this site answers. Pages take GET; forms and endpoints take POST.`,
    ctx,
    { Allow: siteMethods },
  );
}

/** Sends a response on a socket Node's HTTP layer has given up on, then closes it. */
export async function answerAndClose(socket: Duplex, response: Response, method = 'GET'): Promise<void> {
  const body = method === 'HEAD' ? Buffer.alloc(0) : Buffer.from(await response.arrayBuffer());
  const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`];
  response.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'connection') lines.push(`${name}: ${value}`);
  });
  lines.push(`Content-Length: ${body.length}`, 'Connection: close', '', '');
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), body]), () => socket.destroy());
}

/**
 * The `clientError` answer. Like Node's own, it writes only when nothing has been written on the
 * connection yet (a response in progress must not be interleaved), and always closes it.
 */
export function answerClientError(
  error: Error & { code?: string; rawPacket?: Buffer },
  socket: Duplex,
  ctx: RefusalContext,
): void {
  const written = (socket as Duplex & { bytesWritten?: number }).bytesWritten ?? 0;
  if (error.code === 'ECONNRESET' || !socket.writable || written > 0) {
    socket.destroy();
    return;
  }
  let answer: Promise<Response>;
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      answer = Promise.resolve(plainAnswer(431, 'The request headers are too large (16 KB at most).', ctx));
      break;
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      answer = Promise.resolve(plainAnswer(413, 'The chunk extensions of the request body are too large.', ctx));
      break;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      answer = Promise.resolve(plainAnswer(408, 'The request did not arrive in time; send it again.', ctx));
      break;
    default: {
      const head = error.code === 'HPE_INVALID_METHOD' ? requestHead(error.rawPacket) : null;
      answer = head
        ? methodRefusal(head.method, head.target, head.headers, ctx)
        : Promise.resolve(plainAnswer(400, 'The request is not valid HTTP/1.1.', ctx));
    }
  }
  answer.then((response) => answerAndClose(socket, response)).catch(() => socket.destroy());
}
