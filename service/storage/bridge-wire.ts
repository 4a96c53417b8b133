/**
 * What travels over the embedded database's bridge: one JSON message per line. The handshake
 * is read with a small cap and checked strictly before anything else is decoded; requests and
 * replies carry the values PGlite gives and takes beyond JSON's own (dates, big integers,
 * bytes) tagged, so a statement returns the same values through the bridge as in process.
 */
import type { Socket } from 'node:net';
import { z } from 'astro/zod';

/** Where a hosting process serves its database: a Unix socket path, or a loopback port where there are none. */
export type BridgeAddress = { path: string; token: string } | { port: number; token: string };

export const bridgeAddress = z.union([
  z.strictObject({ path: z.string().min(1), token: z.string().min(1) }),
  z.strictObject({ port: z.number().int().min(1).max(65535), token: z.string().min(1) }),
]);

/** The first line a client sends: the token and nothing else. A token is 32 characters; the cap leaves room, no more. */
export const maxHandshakeBytes = 1024;
const handshake = z.strictObject({ token: z.string().max(256) });

/** The token of a handshake line, or null for anything that is not exactly `{"token": "<string>"}`. */
export function handshakeToken(line: Buffer): string | null {
  let value: unknown;
  try {
    value = JSON.parse(line.toString('utf8'));
  } catch {
    return null;
  }
  const parsed = handshake.safeParse(value);
  return parsed.success ? parsed.data.token : null;
}

export const bridgeRequest = z.discriminatedUnion('op', [
  z.strictObject({
    id: z.number().int().min(1),
    op: z.literal('query'),
    text: z.string(),
    params: z.array(z.unknown()).optional(),
  }),
  z.strictObject({ id: z.number().int().min(1), op: z.enum(['begin', 'commit', 'rollback']) }),
]);
export type BridgeRequest = z.infer<typeof bridgeRequest>;

export interface BridgeReply {
  id: number;
  rows?: Record<string, unknown>[];
  error?: { message: string; code?: string };
}

export function encode(message: unknown): string {
  return JSON.stringify(message, function (this: Record<string, unknown>, key, value: unknown) {
    const raw = this[key];
    if (raw instanceof Date) return { $date: raw.toISOString() };
    if (typeof raw === 'bigint') return { $bigint: raw.toString() };
    if (raw instanceof Uint8Array) return { $bytes: Buffer.from(raw).toString('base64') };
    return value;
  });
}

/** Throws on text that is not JSON or carries a malformed tag. */
export function decode(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const tagged = value as Record<string, unknown>;
      const keys = Object.keys(tagged);
      if (keys.length === 1 && typeof tagged[keys[0]!] === 'string') {
        if (keys[0] === '$date') return new Date(tagged.$date as string);
        if (keys[0] === '$bigint') return BigInt(tagged.$bigint as string);
        if (keys[0] === '$bytes') return new Uint8Array(Buffer.from(tagged.$bytes as string, 'base64'));
      }
    }
    return value;
  });
}

export interface LineHandlers {
  /** The longest line accepted now, in bytes; it may change after a line (the handshake raises it). */
  maxBytes: () => number;
  onLine: (line: Buffer) => void;
  /** A line grew past maxBytes(); the socket is destroyed after this returns. */
  onTooLong: () => void;
  /** onLine threw; the socket is destroyed after this returns. */
  onFailure: (error: unknown) => void;
}

/**
 * Splits a socket's bytes into lines. Once the socket is destroyed nothing more is read, not
 * even lines that arrived in the same chunk. Each chunk is scanned once, and a line is refused
 * as soon as it outgrows the cap, before it is ever decoded. Nothing thrown escapes the event handler.
 */
export function readLines(socket: Socket, handlers: LineHandlers): void {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const stop = (report: () => void) => {
    pending = [];
    pendingBytes = 0;
    try {
      report();
    } catch {
      // reporting is best effort; the socket goes either way
    }
    socket.destroy();
  };
  socket.on('data', (chunk: Buffer) => {
    let start = 0;
    while (!socket.destroyed) {
      const end = chunk.indexOf(0x0a, start);
      if (end === -1) break;
      if (pendingBytes + (end - start) > handlers.maxBytes()) return stop(handlers.onTooLong);
      const line =
        pending.length > 0 ? Buffer.concat([...pending, chunk.subarray(start, end)]) : chunk.subarray(start, end);
      pending = [];
      pendingBytes = 0;
      start = end + 1;
      try {
        handlers.onLine(line);
      } catch (error) {
        return stop(() => handlers.onFailure(error));
      }
    }
    if (socket.destroyed || start >= chunk.length) return;
    pendingBytes += chunk.length - start;
    if (pendingBytes > handlers.maxBytes()) return stop(handlers.onTooLong);
    pending.push(chunk.subarray(start));
  });
}
