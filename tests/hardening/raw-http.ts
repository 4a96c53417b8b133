/**
 * HTTP/1.1 over a bare TCP socket, for requests no HTTP client would send: the bytes go out as
 * given (optionally in timed pieces, from a chosen loopback address), and what comes back is
 * split into responses by their framing (Content-Length, chunked, or until the close).
 */
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Map<string, string>;
  body: Buffer;
}

export interface RawExchange {
  responses: RawResponse[];
  /** The server closed the connection. */
  closed: boolean;
  /** No close and no complete response within the time allowed (the client then closed). */
  timedOut: boolean;
  /** Bytes that did not parse as a response. */
  leftover: Buffer;
  ms: number;
  /** How many of the pieces were written before the exchange ended. */
  sent: number;
}

export interface RawOptions {
  port: number;
  /** Source address, e.g. 127.0.0.7: each loopback address is a client of its own for the quota. */
  localAddress?: string;
  timeoutMs?: number;
  /** Stop reading once this many complete responses arrived (default 1). */
  responses?: number;
  /** Keep reading until the server closes (or the time is up), whatever has arrived. */
  untilClose?: boolean;
  /** The request was HEAD: responses carry no body. */
  head?: boolean;
  /** Pause between pieces, for a client that dribbles its request. */
  pieceDelayMs?: number;
}

function parseResponses(data: Buffer, head: boolean, complete: boolean): { responses: RawResponse[]; rest: Buffer } {
  const responses: RawResponse[] = [];
  let at = 0;
  for (;;) {
    const end = data.indexOf('\r\n\r\n', at);
    if (end < 0) break;
    const lines = data.subarray(at, end).toString('latin1').split('\r\n');
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1];
    if (!status) break;
    const headers = new Map<string, string>();
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value);
    }
    const code = Number(status);
    let bodyStart = end + 4;
    let body: Buffer;
    if (head || code === 204 || code === 304 || (code >= 100 && code < 200)) {
      body = Buffer.alloc(0);
    } else if (headers.get('transfer-encoding')?.toLowerCase().includes('chunked')) {
      const chunks: Buffer[] = [];
      let cursor = bodyStart;
      let done = false;
      for (;;) {
        const lineEnd = data.indexOf('\r\n', cursor);
        if (lineEnd < 0) break;
        const size = parseInt(data.subarray(cursor, lineEnd).toString('latin1'), 16);
        if (!Number.isFinite(size)) break;
        if (size === 0) {
          const trailerEnd = data.indexOf('\r\n', lineEnd + 2);
          if (trailerEnd < 0) break;
          cursor = trailerEnd + 2;
          done = true;
          break;
        }
        if (data.length < lineEnd + 2 + size + 2) break;
        chunks.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
        cursor = lineEnd + 2 + size + 2;
      }
      if (!done) break;
      body = Buffer.concat(chunks);
      bodyStart = cursor;
      responses.push({ status: code, headers, body });
      at = bodyStart;
      continue;
    } else if (headers.has('content-length')) {
      const length = Number(headers.get('content-length'));
      if (data.length < bodyStart + length) break;
      body = data.subarray(bodyStart, bodyStart + length);
      bodyStart += length;
    } else {
      if (!complete) break;
      body = data.subarray(bodyStart);
      bodyStart = data.length;
    }
    responses.push({ status: code, headers, body });
    at = bodyStart;
  }
  return { responses, rest: data.subarray(at) };
}

/** Sends `pieces` on a new connection and collects what the server answers. */
export function rawExchange(pieces: Buffer | Buffer[], options: RawOptions): Promise<RawExchange> {
  const parts = Array.isArray(pieces) ? pieces : [pieces];
  const wanted = options.responses ?? 1;
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = connect({
      port: options.port,
      host: '127.0.0.1',
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    });
    let data = Buffer.alloc(0);
    let settled = false;
    let sent = 0;
    const finish = (closed: boolean, timedOut: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const { responses, rest } = parseResponses(data, options.head ?? false, closed);
      resolve({
        responses: responses.filter((r) => r.status >= 200),
        closed,
        timedOut,
        leftover: rest,
        ms: Date.now() - started,
        sent,
      });
    };
    const timer = setTimeout(() => finish(false, true), options.timeoutMs ?? 5000);
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      // 100 Continue and other interim answers do not count.
      if (
        !options.untilClose &&
        parseResponses(data, options.head ?? false, false).responses.filter((r) => r.status >= 200).length >= wanted
      )
        finish(false, false);
    });
    socket.on('close', () => finish(true, false));
    socket.on('error', () => undefined); // a reset shows as a close
    socket.on(
      'connect',
      () =>
        void (async () => {
          for (const [i, part] of parts.entries()) {
            if (i > 0 && options.pieceDelayMs) await new Promise((r) => setTimeout(r, options.pieceDelayMs));
            if (settled || socket.destroyed) return;
            socket.write(part);
            sent += 1;
          }
        })(),
    );
  });
}

/** A request head as UTF-8 bytes (so a raw non-ASCII path goes out as a browser would never send it). */
export function serialize(method: string, target: string, headers: [string, string][], body?: Buffer): Buffer {
  const head = `${method} ${target} HTTP/1.1\r\n${headers.map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'utf8'), body ?? Buffer.alloc(0)]);
}
