/**
 * Writing a web Response (from the rules or a live function) to Node's HTTP response, compressed
 * when the client accepts it and the body is worth it, as Vercel's CDN does for functions.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
const compressible = /^(text\/|application\/(json|xml|ld\+json|linkset\+json|[a-z.-]+\+json)|image\/svg)/;

async function encode(body: Buffer, accepted: string): Promise<{ body: Buffer; encoding?: string }> {
  if (/\bbr\b/.test(accepted)) return { body: await brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }), encoding: 'br' };
  if (/\bgzip\b/.test(accepted)) return { body: await gzipped(body, { level: 6 }), encoding: 'gzip' };
  return { body };
}

export async function writeWebResponse(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of response.headers) headers[name] = value;
  if (req.method === 'HEAD' || response.body === null || response.status === 204 || response.status === 304) {
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  let body: Buffer = Buffer.from(await response.arrayBuffer());
  const type = response.headers.get('Content-Type') ?? '';
  if (body.length >= 1024 && compressible.test(type) && !response.headers.has('Content-Encoding')) {
    const encoded = await encode(body, String(req.headers['accept-encoding'] ?? ''));
    if (encoded.encoding) {
      body = encoded.body;
      headers['content-encoding'] = encoded.encoding;
    }
    headers.vary = [response.headers.get('Vary'), 'Accept-Encoding'].filter(Boolean).join(', ');
  }
  headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body);
}
