/**
 * The embedded database's loopback bridge. PGlite belongs to the one process that opened it;
 * that process serves it to other local processes (the departures CLI while `npm start` runs)
 * on 127.0.0.1, one JSON message per line. A client first sends the random token from the host
 * file, which only the data folder's owner can read.
 *
 * Each statement runs through PGlite's own query and transaction locks, so a client's
 * transaction never interleaves with the host's own queries.
 */
import { timingSafeEqual } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { Sql } from './sql.ts';

export interface BridgeAddress {
  port: number;
  token: string;
}

type BridgeRequest =
  | { id: number; op: 'query'; text: string; params?: unknown[] }
  | { id: number; op: 'begin' | 'commit' | 'rollback' };

type Unsent<T> = T extends unknown ? Omit<T, 'id'> : never;

interface BridgeReply {
  id: number;
  rows?: Record<string, unknown>[];
  error?: { message: string; code?: string };
}

/**
 * JSON with the values PGlite gives and takes beyond JSON's own: dates, big integers and bytes
 * travel tagged, so a statement returns the same values through the bridge as in process.
 */
function encode(message: unknown): string {
  return JSON.stringify(message, function (this: Record<string, unknown>, key, value: unknown) {
    const raw = this[key];
    if (raw instanceof Date) return { $date: raw.toISOString() };
    if (typeof raw === 'bigint') return { $bigint: raw.toString() };
    if (raw instanceof Uint8Array) return { $bytes: Buffer.from(raw).toString('base64') };
    return value;
  });
}

function decode(text: string): unknown {
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

/** A client that stops talking inside a transaction loses it, so it cannot block the site. */
const transactionIdleMs = 15_000;
const maxLineBytes = 8 * 1024 * 1024;

class Rollback extends Error {}

function lines(socket: Socket, onLine: (line: string) => void): void {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    if (buffered.length > maxLineBytes) {
      socket.destroy();
      return;
    }
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      if (line.trim()) onLine(line);
    }
  });
}

function sameToken(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function errorOf(error: unknown): { message: string; code?: string } {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? { message, code } : { message };
}

/** One client connection: requests run one after another; an open transaction is rolled back on hang-up. */
function serveConnection(db: PGlite, token: string, socket: Socket): void {
  let authorised = false;
  let chain = Promise.resolve();
  let tx: { query: Transaction['query']; finish: (commit: boolean) => Promise<void> } | undefined;
  let idle: ReturnType<typeof setTimeout> | undefined;

  const abandon = () => {
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
    const t = await Promise.race([inside, done.then(() => Promise.reject(new Error('transaction ended before it began')))]);
    tx = {
      query: t.query.bind(t) as Transaction['query'],
      finish: async (commit) => {
        settle(commit);
        await done;
      },
    };
  };

  const handle = async (request: BridgeRequest): Promise<BridgeReply> => {
    clearTimeout(idle);
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
        default:
          throw new Error('unknown bridge operation');
      }
    } catch (error) {
      return { id: request.id, error: errorOf(error) };
    } finally {
      if (tx) idle = setTimeout(() => socket.destroy(), transactionIdleMs);
    }
  };

  lines(socket, (line) => {
    let message: unknown;
    try {
      message = decode(line);
    } catch {
      socket.destroy();
      return;
    }
    if (!authorised) {
      authorised = sameToken((message as { token?: unknown }).token, token);
      if (!authorised) socket.destroy();
      else socket.write('{"ready":true}\n');
      return;
    }
    chain = chain
      .then(async () => {
        const reply = await handle(message as BridgeRequest);
        if (!socket.destroyed) socket.write(`${encode(reply)}\n`);
      })
      .catch(() => {
        socket.destroy();
      });
  });
}

/** Serves `db` on 127.0.0.1 at a free port. */
export async function startBridge(db: PGlite, token: string): Promise<{ port: number; stop(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serveConnection(db, token, socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the bridge did not get a port');
  return {
    port: address.port,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Raised when the bridge cannot be reached at all (the host went away), as opposed to a failed statement. */
export class BridgeUnreachable extends Error {
  override name = 'BridgeUnreachable';
}

class BridgeSession {
  readonly #socket: Socket;
  readonly #timeoutMs: number;
  #next = 1;
  readonly #waiting = new Map<number, { resolve: (reply: BridgeReply) => void; reject: (error: Error) => void }>();
  #failure: Error | undefined;

  constructor(socket: Socket, timeoutMs: number) {
    this.#socket = socket;
    this.#timeoutMs = timeoutMs;
    lines(socket, (line) => {
      const reply = decode(line) as BridgeReply;
      this.#waiting.get(reply.id)?.resolve(reply);
      this.#waiting.delete(reply.id);
    });
    const fail = (error: Error) => {
      this.#failure ??= error;
      for (const waiter of this.#waiting.values()) waiter.reject(this.#failure);
      this.#waiting.clear();
    };
    socket.on('error', (error) => fail(new BridgeUnreachable(`the embedded database host hung up: ${error.message}`)));
    socket.on('close', () => fail(new BridgeUnreachable('the embedded database host hung up')));
  }

  async request(body: Unsent<BridgeRequest>): Promise<Record<string, unknown>[]> {
    if (this.#failure) throw this.#failure;
    const id = this.#next++;
    const reply = await new Promise<BridgeReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        this.#socket.destroy();
        reject(new Error(`the embedded database did not answer within ${this.#timeoutMs} ms`));
      }, this.#timeoutMs);
      this.#waiting.set(id, {
        resolve: (r) => (clearTimeout(timer), resolve(r)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      this.#socket.write(`${encode({ ...body, id })}\n`);
    });
    if (reply.error) throw Object.assign(new Error(reply.error.message), reply.error.code ? { code: reply.error.code } : {});
    return reply.rows ?? [];
  }

  close(): void {
    this.#socket.end();
  }
}

async function openSession(address: BridgeAddress, timeoutMs: number): Promise<BridgeSession> {
  const socket = connect({ host: '127.0.0.1', port: address.port });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new BridgeUnreachable(`the embedded database host did not accept a connection within ${timeoutMs} ms`));
    }, timeoutMs);
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      if (!buffered.includes('\n')) return;
      clearTimeout(timer);
      socket.off('data', onData);
      if (buffered.startsWith('{"ready":true}')) resolve();
      else reject(new BridgeUnreachable('the embedded database host refused the connection'));
    };
    socket.on('data', onData);
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(new BridgeUnreachable(`cannot reach the embedded database host: ${error.message}`));
    });
    socket.once('close', () => {
      clearTimeout(timer);
      reject(new BridgeUnreachable('the embedded database host closed the connection'));
    });
    socket.once('connect', () => socket.write(`${JSON.stringify({ token: address.token })}\n`));
  });
  socket.removeAllListeners('error');
  socket.removeAllListeners('close');
  return new BridgeSession(socket, timeoutMs);
}

/** Sql over the bridge: a short connection per statement, one connection per transaction. */
export function bridgeSql(address: BridgeAddress, timeoutMs = 10_000): Omit<Sql, 'close'> {
  return {
    query: async <T>(text: string, params?: unknown[]) => {
      const session = await openSession(address, timeoutMs);
      try {
        return { rows: (await session.request({ op: 'query', text, ...(params ? { params } : {}) })) as T[] };
      } finally {
        session.close();
      }
    },
    transaction: async (work) => {
      const session = await openSession(address, timeoutMs);
      try {
        await session.request({ op: 'begin' });
        try {
          const result = await work({
            query: async <T>(text: string, params?: unknown[]) => ({
              rows: (await session.request({ op: 'query', text, ...(params ? { params } : {}) })) as T[],
            }),
          });
          await session.request({ op: 'commit' });
          return result;
        } catch (error) {
          await session.request({ op: 'rollback' }).catch(() => undefined);
          throw error;
        }
      } finally {
        session.close();
      }
    },
  };
}
