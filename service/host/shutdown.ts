/**
 * Stopping the Node host when its supervisor asks: SIGTERM (systemd, Docker, supervisord, runit,
 * a pidfile script) or SIGINT (Ctrl-C in a terminal). The server stops taking connections, lets
 * the requests it has begun finish (each answered, an enquiry stored and mailed as usual), closes
 * each kept-alive connection as soon as it falls idle, and after SHUTDOWN_GRACE_MS cuts whatever
 * is left. Then what the process opened is closed: the embedded database (its host file and
 * bridge with it), the PostgreSQL pool, the Redis counter store (closeWhenStopped). It then exits
 * with 0, well within the grace supervisors give (Docker and supervisord 10 s, systemd 90 s).
 *
 * One stop per process, started by the first signal: a supervisor that signals the whole group
 * (systemd's default) and a terminal's Ctrl-C reach npm and the server both, and npm passes its
 * own signal on, so a second signal changes nothing. `npm start` runs the server with `exec`, so
 * npm's child is the server itself and npm passes SIGTERM and SIGINT to it (docs/deployment.md).
 */
import type { Server } from 'node:http';

/** Longest the closing of storage and counters may take once the requests have ended. */
const closeBoundMs = 2000;

/** How often a server npm started looks whether npm is still there. */
const parentCheckMs = 500;

/** What each server closes when it stops, besides its connections. */
const closers = new WeakMap<Server, (() => Promise<unknown>)[]>();

/** Closes what `close` closes when `server` is stopped (stopServer), once its requests have ended. */
export function closeWhenStopped(server: Server, close: () => Promise<unknown>): void {
  closers.set(server, [...(closers.get(server) ?? []), close]);
}

interface Stopped {
  /** From the stop to the last connection closed. */
  requestsMs: number;
  /** Connections still busy when the grace ran out, cut. */
  cut: number;
  /** Closing storage and counters. */
  closingMs: number;
  /** Whether everything closed within its bound. */
  closed: boolean;
}

/**
 * Stops `server` taking connections and lets the requests it has begun finish, closing each
 * connection once it is idle; after `graceMs` the busy ones are cut. Resolves when the last is closed.
 */
function drain(server: Server, graceMs: number): Promise<{ requestsMs: number; cut: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    let cut = 0;
    // Answers from now on close their connection, so a client with a kept-alive connection goes elsewhere.
    server.prependListener('request', (_req, res) => {
      if (!res.headersSent) res.setHeader('Connection', 'close');
    });
    const sweep = setInterval(() => server.closeIdleConnections(), 25);
    const grace = setTimeout(() => {
      server.getConnections((_error, count) => {
        cut = count;
        server.closeAllConnections();
      });
    }, graceMs);
    // Node calls back once no connection is left (at once when the server was not listening).
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(grace);
      resolve({ requestsMs: Math.round(performance.now() - started), cut });
    });
    server.closeIdleConnections();
  });
}

/** Closes what `server` opened (closeWhenStopped), each whether or not another fails. */
function closeOpened(server: Server): Promise<unknown> {
  return Promise.allSettled((closers.get(server) ?? []).map((close) => close()));
}

/** For a server that never listened: closes what it opened and tells its 'close' listeners. */
export async function closeUnstarted(server: Server): Promise<void> {
  // Node emits 'close' at once for a server that is not listening.
  server.close();
  await closeOpened(server);
}

/** Drains `server` (drain) and then closes what it opened (closeWhenStopped), each bounded. */
async function stopServer(server: Server, graceMs: number): Promise<Stopped> {
  const { requestsMs, cut } = await drain(server, graceMs);
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const closing = closeOpened(server).then(() => true);
  const bound = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), closeBoundMs)));
  const closed = await Promise.race([closing, bound]);
  clearTimeout(timer);
  return { requestsMs, cut, closingMs: Math.round(performance.now() - started), closed };
}

export interface SignalStop {
  /** Resolves at the first SIGTERM or SIGINT (`npm start` stops its build then). */
  signalled: Promise<NodeJS.Signals>;
  /** The server to stop: a signal that came before it listened stops it at once. */
  serving(server: Server): void;
}

/**
 * From now on SIGTERM and SIGINT stop the process gracefully (stopServer), and it exits with 0.
 * A signal before the server listens waits for it up to `graceMs`, then exits.
 */
export function stopOnSignals(graceMs: number, log: (line: string) => void = (line) => console.log(line)): SignalStop {
  let server: Server | undefined;
  let signal: NodeJS.Signals | undefined;
  let signalled!: (signal: NodeJS.Signals) => void;
  let leave: ReturnType<typeof setTimeout> | undefined;
  const first = new Promise<NodeJS.Signals>((resolve) => (signalled = resolve));

  const stop = async (target: Server, received: NodeJS.Signals) => {
    const started = performance.now();
    const stopped = await stopServer(target, graceMs);
    const total = Math.round(performance.now() - started);
    log(
      `[server] Stopped on ${received} in ${total} ms: requests in flight finished in ${stopped.requestsMs} ms` +
        (stopped.cut > 0 ? ` (${stopped.cut} connection(s) still busy after ${graceMs} ms were cut)` : '') +
        (stopped.closed
          ? `, storage closed in ${stopped.closingMs} ms.`
          : `; storage did not close within ${closeBoundMs} ms and is left as after a crash (taken back at the next start).`),
    );
    process.exit(0);
  };

  const onSignal = (received: NodeJS.Signals, why: string = received) => {
    if (signal) return;
    signal = received;
    signalled(received);
    if (server) {
      log(`[server] ${why}: stopping; requests in flight get up to ${graceMs} ms to finish`);
      void stop(server, received);
      return;
    }
    // Not serving yet (still building, or opening storage): it stops as soon as it is, or leaves when the grace is over.
    log(`[server] ${why} before serving: stopping`);
    leave = setTimeout(() => process.exit(0), graceMs);
    leave.unref();
  };
  // (Node passes a handler the signal's number too, which is not a reason to give.)
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  // Started by `npm start` or `npm run serve`: npm killed outright (SIGKILL, which it cannot pass
  // on) leaves no one to stop this server, so it stops itself rather than keep the port.
  if (['start', 'serve'].includes(process.env.npm_lifecycle_event ?? '')) {
    const parent = process.ppid;
    const watch = setInterval(() => {
      if (process.ppid === parent) return;
      clearInterval(watch);
      onSignal('SIGTERM', `npm (process ${parent}), which started this server, has gone`);
    }, parentCheckMs);
    watch.unref();
  }
  return {
    signalled: first,
    serving(target) {
      server = target;
      clearTimeout(leave);
      if (signal) void stop(target, signal);
    },
  };
}
