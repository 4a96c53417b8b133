/**
 * The Node host's HTTP server around the request handler: a client's reads taken in turn with
 * other clients' (fair-queue.ts), an unexpected failure answered 500 in plain words (or the
 * connection closed when the answer had begun), what Node's parser refuses and CONNECT given
 * defined answers (client-errors.ts), and bounds on how long a client may take to send a request.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { cachePolicy } from '../http/cache-policy.ts';
import { answerAndClose, answerClientError, methodRefusal } from './client-errors.ts';
import { FairQueue } from './fair-queue.ts';
import { requestHeaders } from './node-requests.ts';
import type { Answering, HostParts } from './request-handler.ts';

/** How long a client may take, in milliseconds. */
export interface HostTimeouts {
  /** To send the request's headers. */
  headersMs: number;
  /** To send the whole request. */
  requestMs: number;
  /** An idle kept-alive connection stays open. */
  keepAliveMs: number;
  /** How often the header and request timeouts are checked (a client is cut off at the first check after its timeout). */
  checkEveryMs: number;
}

const hostTimeouts: HostTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
  checkEveryMs: 1_000,
};

export function createNodeServer(
  host: Pick<HostParts, 'requests' | 'refusals' | 'securityHeaders'>,
  handle: (req: IncomingMessage, res: ServerResponse) => Answering,
  timeouts: Partial<HostTimeouts> = {},
): Server {
  // Reads are taken in turn by client, up to four of one client at once (so one slow read, say a
  // storage timeout, does not hold a page's other files); those that reach a function (renders,
  // mostly) one per client and four in all (request-handler.ts).
  const clientTurns = new FairQueue({ concurrency: Infinity, perClient: 4 });
  const { headersMs, requestMs, keepAliveMs, checkEveryMs } = { ...hostTimeouts, ...timeouts };
  // Header timeouts are enforced on this interval; Node's default (30 s) would let a client
  // dribbling its headers hold a connection for up to 40 s instead of headersTimeout.
  // A request without a Host header is refused by the host itself (hostHeaderRefusal), with
  // the headers every answer carries, rather than by Node with a bare 400.
  const failed = (req: IncomingMessage, res: ServerResponse, error: unknown) => {
    console.error(
      `[server] ${req.method} ${req.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    if (!res.headersSent) {
      res.writeHead(500, {
        ...host.securityHeaders,
        'Content-Type': 'text/plain; charset=utf-8',
        'Cache-Control': cachePolicy.never,
      });
      res.end('Something went wrong on our side. Please try again in a minute.\n');
    } else {
      res.destroy();
    }
  };
  /** Starts answering; what fails, at once or later, is answered by `failed`. */
  const started = (req: IncomingMessage, res: ServerResponse): Promise<void> | undefined => {
    try {
      return handle(req, res)?.catch((error: unknown) => failed(req, res, error));
    } catch (error) {
      failed(req, res, error);
      return undefined;
    }
  };
  const server = createServer({ connectionsCheckingInterval: checkEveryMs, requireHostHeader: false }, (req, res) => {
    // A client's reads are served in turn with other clients' (requests with a body are not held
    // in line: see fair-queue.ts).
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      void started(req, res);
      return;
    }
    const client = host.requests.clientKeyOf(req);
    if (clientTurns.isFree(client)) {
      // Its turn is now: most reads are answered before this returns (request-handler.ts), and
      // only one that has to wait holds a place in the client's turn.
      const later = started(req, res);
      if (later) void clientTurns.run(client, () => later);
      return;
    }
    void clientTurns.run(client, () => started(req, res) ?? Promise.resolve());
  });
  // What Node's parser refuses (unknown methods, malformed requests, oversized or slow headers)
  // gets a defined answer instead of a bare 400; CONNECT would otherwise be dropped unanswered.
  server.on('clientError', (error: Error, socket: Socket) =>
    answerClientError(error, socket, host.refusals(socket.remoteAddress)),
  );
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    methodRefusal('CONNECT', req.url ?? '/', requestHeaders(req), host.refusals(socket.remoteAddress))
      .then((response) => answerAndClose(socket, response))
      .catch(() => socket.destroy());
  });
  server.headersTimeout = headersMs;
  server.requestTimeout = requestMs;
  server.keepAliveTimeout = keepAliveMs;
  return server;
}
