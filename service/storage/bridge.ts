/**
 * The embedded database's bridge. PGlite belongs to the one process that opened it; that
 * process serves it to other local processes (the departures and enquiries commands while
 * `npm start` runs), one JSON message per line (bridge-wire.ts), on a Unix socket in a private
 * folder or, where there are none, on 127.0.0.1 (bridge-socket.ts). A client first sends the
 * random token from the host file, which only the data folder's owner can read.
 *
 * No input from a socket can stop the hosting process: a connection that breaks the protocol
 * (a malformed or oversized line, a wrong token, no handshake in time) is closed, and a failure
 * while serving one is logged and closes that connection only. Each statement runs through
 * PGlite's own query and transaction locks, so a client's transaction never interleaves with the
 * host's own queries.
 */
import { timingSafeEqual } from 'node:crypto';
import { chmodSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import {
  bridgeRequest,
  decode,
  encode,
  handshakeToken,
  maxHandshakeBytes,
  readLines,
  type BridgeAddress,
  type BridgeReply,
  type BridgeRequest,
} from './bridge-wire.ts';

export type { BridgeAddress } from './bridge-wire.ts';

const bridgeLimits = {
  /** A client that connects must authenticate within this time. */
  handshakeTimeoutMs: 5_000,
  /** After the handshake: one statement with its parameters (a CSV import sends one row at a time). */
  maxRequestBytes: 8 * 1024 * 1024,
  /** A client that stops talking inside a transaction loses it, so it cannot block the site. */
  transactionIdleMs: 15_000,
  /** The commands open one short connection per statement; more than this at once is not them. */
  maxConnections: 128,
};

export interface BridgeOptions {
  /** A Unix socket path (bridge-socket.ts); without one, a free port on 127.0.0.1. */
  socketPath?: string | undefined;
  handshakeTimeoutMs?: number;
  /** Where refusals (at most one line a minute) and unexpected failures go; console.error unless given. */
  log?: (line: string) => void;
}

class Rollback extends Error {}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function errorOf(error: unknown): { message: string; code?: string } {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? { message, code } : { message };
}

/** Refused connections, reported at most once a minute so a flood of them cannot flood the log. */
function refusalReporter(log: (line: string) => void): (reason: string) => void {
  let reportedAt = 0;
  let unreported = 0;
  return (reason) => {
    unreported += 1;
    const now = Date.now();
    if (now - reportedAt < 60_000) return;
    const others = unreported > 1 ? ` (${unreported - 1} other refusal(s) since the last report)` : '';
    log(`[bridge] refused a connection that ${reason}${others}`);
    reportedAt = now;
    unreported = 0;
  };
}

interface Connection {
  db: PGlite;
  token: string;
  handshakeTimeoutMs: number;
  refused: (reason: string) => void;
  failed: (error: unknown) => void;
}

/** One client connection: requests run one after another; an open transaction is rolled back on hang-up. */
function serveConnection(socket: Socket, { db, token, handshakeTimeoutMs, refused, failed }: Connection): void {
  let authorised = false;
  let chain = Promise.resolve();
  let tx: { query: Transaction['query']; finish: (commit: boolean) => Promise<void> } | undefined;
  let idle: ReturnType<typeof setTimeout> | undefined;

  const refuse = (reason: string) => {
    refused(reason);
    socket.destroy();
  };
  const handshakeTimer = setTimeout(
    () => refuse(`sent no handshake within ${handshakeTimeoutMs} ms`),
    handshakeTimeoutMs,
  );
  const abandon = () => {
    clearTimeout(handshakeTimer);
    clearTimeout(idle);
    const open = tx;
    tx = undefined;
    if (open) void open.finish(false).catch(() => undefined);
  };
  socket.on('close', abandon);
  socket.on('error', () => socket.destroy());

  const begin = async () => {
    if (tx) throw new Error('a transaction is already open on this connection');
    let settle!: (commit: boolean) => void;
    const decided = new Promise<boolean>((resolve) => (settle = resolve));
    let entered!: (value: Transaction) => void;
    const inside = new Promise<Transaction>((resolve) => (entered = resolve));
    const done = db
      .transaction(async (t) => {
        entered(t);
        if (!(await decided)) throw new Rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      });
    const t = await Promise.race([
      inside,
      done.then(() => Promise.reject(new Error('transaction ended before it began'))),
    ]);
    tx = {
      query: t.query.bind(t),
      finish: async (commit) => {
        settle(commit);
        await done;
      },
    };
  };

  const handle = async (request: BridgeRequest): Promise<BridgeReply> => {
    clearTimeout(idle);
    const reply = await run(request);
    if (tx) idle = setTimeout(() => socket.destroy(), bridgeLimits.transactionIdleMs);
    return reply;
  };

  const run = async (request: BridgeRequest): Promise<BridgeReply> => {
    try {
      switch (request.op) {
        case 'query': {
          const target = tx ?? db;
          const result = await target.query<Record<string, unknown>>(request.text, request.params ?? []);
          return { id: request.id, rows: result.rows };
        }
        case 'begin':
          await begin();
          return { id: request.id, rows: [] };
        case 'commit':
        case 'rollback': {
          const open = tx;
          tx = undefined;
          if (!open) throw new Error(`${request.op} without a transaction`);
          await open.finish(request.op === 'commit');
          return { id: request.id, rows: [] };
        }
      }
    } catch (error) {
      return { id: request.id, error: errorOf(error) };
    }
  };

  const authenticate = (line: Buffer) => {
    // Nothing but the small handshake line is decoded before the token matches.
    const given = handshakeToken(line);
    if (given === null) return refuse('sent a malformed handshake');
    if (!sameToken(given, token)) return refuse('sent a wrong token');
    authorised = true;
    clearTimeout(handshakeTimer);
    socket.write('{"ready":true}\n');
  };

  readLines(socket, {
    maxBytes: () => (authorised ? bridgeLimits.maxRequestBytes : maxHandshakeBytes),
    onTooLong: () =>
      refused(
        authorised
          ? `sent a request over ${bridgeLimits.maxRequestBytes} bytes`
          : `sent a handshake over ${maxHandshakeBytes} bytes`,
      ),
    onFailure: failed,
    onLine: (line) => {
      if (!authorised) return authenticate(line);
      let parsed: ReturnType<typeof bridgeRequest.safeParse>;
      try {
        parsed = bridgeRequest.safeParse(decode(line.toString('utf8')));
      } catch {
        return refuse('sent a request that is not JSON');
      }
      if (!parsed.success) return refuse('sent a malformed request');
      const request = parsed.data;
      chain = chain
        .then(async () => {
          if (socket.destroyed) return; // queued behind a statement when the client hung up: never run
          const reply = await handle(request);
          // The client hung up while this ran: a transaction it just opened must not stay open.
          if (socket.destroyed) abandon();
          else socket.write(`${encode(reply)}\n`);
        })
        .catch((error: unknown) => {
          failed(error);
          socket.destroy();
        });
    },
  });
}

/** Serves `db` on `options.socketPath`, or on 127.0.0.1 at a free port. */
export async function startBridge(
  db: PGlite,
  token: string,
  options: BridgeOptions = {},
): Promise<{ address: BridgeAddress; stop(): Promise<void> }> {
  const log = options.log ?? ((line: string) => console.error(line));
  const connection: Connection = {
    db,
    token,
    handshakeTimeoutMs: options.handshakeTimeoutMs ?? bridgeLimits.handshakeTimeoutMs,
    refused: refusalReporter(log),
    failed: (error) =>
      log(
        `[bridge] closed a connection after an unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      ),
  };
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    try {
      serveConnection(socket, connection);
    } catch (error) {
      connection.failed(error);
      socket.destroy();
    }
  });
  server.maxConnections = bridgeLimits.maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if (options.socketPath) server.listen(options.socketPath, () => resolve());
    else server.listen(0, '127.0.0.1', () => resolve());
  });
  // The socket gets its mode from the umask; its folder is private already, the socket is made so too.
  if (options.socketPath) chmodSync(options.socketPath, 0o600);
  // After listening, an error (a failed accept) is logged: it must not end the hosting process.
  server.on('error', (error) => log(`[bridge] ${error.message}`));
  const bound = server.address();
  let address: BridgeAddress;
  if (options.socketPath) address = { path: options.socketPath, token };
  else if (bound && typeof bound === 'object') address = { port: bound.port, token };
  else throw new Error('the bridge did not get a port');
  return {
    address,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
