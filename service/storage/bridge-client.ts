/**
 * The client side of the embedded database's bridge (bridge.ts): Sql for a process that does
 * not host the database, as a short connection per statement and one connection per transaction.
 */
import { connect, type Socket } from 'node:net';
import { decode, encode, readLines, type BridgeAddress, type BridgeReply, type BridgeRequest } from './bridge-wire.ts';
import type { Sql } from './sql.ts';

/** Raised when the bridge cannot be reached at all (the host went away), as opposed to a failed statement. */
export class BridgeUnreachable extends Error {
  override name = 'BridgeUnreachable';
}

type Unsent<T> = T extends unknown ? Omit<T, 'id'> : never;

/** Replies come from the host, which is trusted; the cap only bounds a host gone wrong. */
const maxReplyBytes = 256 * 1024 * 1024;

class BridgeSession {
  readonly #socket: Socket;
  readonly #timeoutMs: number;
  #next = 1;
  readonly #waiting = new Map<number, { resolve: (reply: BridgeReply) => void; reject: (error: Error) => void }>();
  #failure: Error | undefined;
  /** Settles when the host has accepted the token, or refused the connection. */
  readonly ready: Promise<void>;

  constructor(socket: Socket, timeoutMs: number) {
    this.#socket = socket;
    this.#timeoutMs = timeoutMs;
    let accepted = false;
    let settle!: { resolve: () => void; reject: (error: Error) => void };
    this.ready = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    const timer = setTimeout(() => {
      fail(new BridgeUnreachable(`the embedded database host did not accept a connection within ${timeoutMs} ms`));
      socket.destroy();
    }, timeoutMs);
    const fail = (error: Error) => {
      clearTimeout(timer);
      this.#failure ??= error;
      if (!accepted) settle.reject(this.#failure);
      for (const waiter of this.#waiting.values()) waiter.reject(this.#failure);
      this.#waiting.clear();
    };
    readLines(socket, {
      maxBytes: () => maxReplyBytes,
      onTooLong: () => fail(new Error(`the embedded database host sent a reply over ${maxReplyBytes} bytes`)),
      onFailure: (error) =>
        fail(
          new Error(
            `the embedded database host sent a reply that could not be read: ${error instanceof Error ? error.message : String(error)}`,
          ),
        ),
      onLine: (line) => {
        if (!accepted) {
          if (line.toString('utf8') !== '{"ready":true}') {
            fail(new BridgeUnreachable('the embedded database host refused the connection'));
            socket.destroy();
            return;
          }
          accepted = true;
          clearTimeout(timer);
          settle.resolve();
          return;
        }
        const reply = decode(line.toString('utf8')) as BridgeReply;
        this.#waiting.get(reply.id)?.resolve(reply);
        this.#waiting.delete(reply.id);
      },
    });
    socket.on('error', (error) =>
      fail(new BridgeUnreachable(`cannot reach the embedded database host: ${error.message}`)),
    );
    socket.on('close', () =>
      fail(
        new BridgeUnreachable(
          accepted ? 'the embedded database host hung up' : 'the embedded database host closed the connection',
        ),
      ),
    );
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
    if (reply.error)
      throw Object.assign(new Error(reply.error.message), reply.error.code ? { code: reply.error.code } : {});
    return reply.rows ?? [];
  }

  close(): void {
    this.#socket.end();
  }
}

async function openSession(address: BridgeAddress, timeoutMs: number): Promise<BridgeSession> {
  const socket =
    'path' in address ? connect({ path: address.path }) : connect({ host: '127.0.0.1', port: address.port });
  const session = new BridgeSession(socket, timeoutMs);
  socket.once('connect', () => socket.write(`${JSON.stringify({ token: address.token })}\n`));
  await session.ready;
  return session;
}

/**
 * False only when nothing listens at a bridge address at all: the connection is refused, or the
 * socket is gone. A listener that takes the token answers true, and so, to be safe, does one
 * that is slow, full or hangs up: taking a database over from a host that still runs would
 * corrupt it, so only the system's own word that nobody is there counts as gone.
 */
export function bridgeListening(address: BridgeAddress, timeoutMs = 2000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket =
      'path' in address ? connect({ path: address.path }) : connect({ host: '127.0.0.1', port: address.port });
    const done = (listening: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(listening);
    };
    const timer = setTimeout(() => done(true), timeoutMs);
    // A proper handshake, so the host does not log the probe as a refused connection.
    socket.once('connect', () => socket.write(`${JSON.stringify({ token: address.token })}\n`));
    socket.once('data', () => done(true));
    socket.once('close', () => done(true));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done(!['ECONNREFUSED', 'ENOENT', 'ENOTSOCK'].includes(error.code ?? '')),
    );
  });
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
