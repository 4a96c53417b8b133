/**
 * A loopback HTTP proxy in front of a test server, standing for the network a reader in the hills
 * has: it passes requests on, or for the paths it is told holds them without ever answering (a
 * stalled connection) or answers 502 (a gateway in trouble), and it counts every request that
 * reaches it, so a test can say how often the site was asked. It can also change one file on its
 * way (`rewrite`), as a test needs it.
 */
import { createServer, request as forward, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

interface Asked {
  method: string;
  path: string;
  /** Conditional requests carry these. */
  ifNoneMatch: string | undefined;
  /** Set on a navigation preload request. */
  preload: string | undefined;
  /** What the browser says the request is for: `document` for a page shown, `empty` for a script's (or worker's) fetch. */
  dest: string | undefined;
}

type Trouble = 'stall' | '502';

export interface FlakyProxy {
  url: string;
  asked: Asked[];
  /** From now on, requests whose path (and query) `matches` get this trouble; null passes all again. */
  trouble(kind: Trouble | null, matches?: (path: string) => boolean): void;
  close(): Promise<void>;
}

/** A file the proxy hands on changed: its path, and what it does to the text. */
export interface Rewrite {
  path: string;
  change: (text: string) => string;
}

export async function startFlakyProxy(target: string, rewrite?: Rewrite): Promise<FlakyProxy> {
  const upstream = new URL(target);
  const asked: Asked[] = [];
  const sockets = new Set<Socket>();
  let rule: { kind: Trouble; matches: (path: string) => boolean } | null = null;

  const server: Server = createServer((req: IncomingMessage, res) => {
    const path = req.url ?? '/';
    const header = (name: string) => req.headers[name] as string | undefined;
    asked.push({
      method: req.method ?? 'GET',
      path,
      ifNoneMatch: header('if-none-match'),
      preload: header('service-worker-navigation-preload'),
      dest: header('sec-fetch-dest'),
    });
    if (rule?.matches(path)) {
      if (rule.kind === '502')
        res.writeHead(502, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' }).end('Bad gateway\n');
      return; // stalled: no answer, ever
    }
    const rewritten = rewrite && path === rewrite.path ? rewrite : undefined;
    const headers = { ...req.headers };
    // A file to change is asked for plain, and read whole before it is changed.
    if (rewritten) delete headers['accept-encoding'];
    const out = forward(
      { host: upstream.hostname, port: upstream.port, method: req.method, path, headers },
      (answer) => {
        if (!rewritten || answer.statusCode !== 200) {
          res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.from(rewritten.change(Buffer.concat(chunks).toString('utf8')));
          const kept = Object.entries(answer.headers).filter(([name]) => !['content-length', 'etag'].includes(name));
          res.writeHead(200, { ...Object.fromEntries(kept), 'content-length': body.byteLength }).end(body);
        });
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    trouble(kind, matches = () => true) {
      rule = kind ? { kind, matches } : null;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((done) => server.close(done));
    },
  };
}
