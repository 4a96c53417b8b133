/**
 * Writing a web Response (from the rules or a live function) to Node's HTTP response, compressed
 * when the client accepts it and the body is worth it, as Vercel's CDN does for functions.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { chosenEncoding, compress, worthCompressing } from './compression.ts';

export async function writeWebResponse(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of response.headers) headers[name] = value;
  if (req.method === 'HEAD' || response.body === null || response.status === 204 || response.status === 304) {
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  let body: Buffer = Buffer.from(await response.arrayBuffer());
  if (worthCompressing(response.headers.get('Content-Type') ?? '', body.length) && !response.headers.has('Content-Encoding')) {
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
