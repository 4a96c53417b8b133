/**
 * Writing an answer to Node's HTTP response: a web Response (from the rules or a live function),
 * or a function's answer the edge cache keeps, compressed when the client accepts it and the
 * body is worth it, as Vercel's CDN does for functions.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { matchesEtag } from '../http/respond.ts';
import { notModifiedRaw } from '../http/not-modified.ts';
import { chosenEncoding, compress, worthCompressing } from './compression.ts';
import type { EdgeCache, KeptResponse } from './edge-cache.ts';
import { lowerCase } from './static-files.ts';

export async function writeWebResponse(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of response.headers) headers[name] = value;
  if (req.method === 'HEAD' || response.body === null || response.status === 204 || response.status === 304) {
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  let body: Buffer = Buffer.from(await response.arrayBuffer());
  if (
    worthCompressing(response.headers.get('Content-Type') ?? '', body.length) &&
    !response.headers.has('Content-Encoding')
  ) {
    const encoding = chosenEncoding(String(req.headers['accept-encoding'] ?? ''));
    if (encoding) {
      body = await compress(body, encoding);
      headers['content-encoding'] = encoding;
    }
    headers.vary = [response.headers.get('Vary'), 'Accept-Encoding'].filter(Boolean).join(', ');
  }
  headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body);
}

/**
 * Sends a function's answer (kept or just made) with the rules' headers where the function set
 * none and, when it comes from the cache, its Age, answering a matching If-None-Match with 304
 * and compressing when the client accepts it. The headers go to Node as one flat list, the kept
 * answer's own part made once.
 */
export async function writeKeptResponse(
  req: IncomingMessage,
  res: ServerResponse,
  edge: EdgeCache,
  kept: KeptResponse,
  ruleHeaders: Record<string, string>,
  age = 0,
): Promise<void> {
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
