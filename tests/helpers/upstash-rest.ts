/**
 * A loopback HTTP server speaking Upstash's REST protocol in front of a real redis-server, so
 * the REST counter store is tested against real Redis semantics (EVAL included) without a cloud
 * account. It translates, it does not imitate: every command goes to Redis as sent.
 *   POST /          body ["CMD", ...args]      -> {"result": ...} | {"error": "..."} (400)
 *   POST /pipeline  body [["CMD", ...], ...]   -> [{"result": ...} | {"error": "..."}, ...]
 * `Authorization: Bearer <token>` is required (401 otherwise). With `Upstash-Encoding: base64`
 * string results are base64-encoded, as Upstash does (status replies such as OK excepted).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createClient } from 'redis';
import { freePort } from './project.ts';

export interface UpstashRest {
  url: string;
  token: string;
  /** Requests answered so far, by path. */
  requests: Record<string, number>;
  close(): Promise<void>;
}

type Reply = { result: unknown } | { error: string };

function encode(value: unknown): unknown {
  if (typeof value === 'string') return value === 'OK' ? value : Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(encode);
  return value;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startUpstashRest(redisUrl: string, token = 'test-token'): Promise<UpstashRest> {
  // Offline queueing off: when Redis is gone the translator answers an error at once, as Upstash would.
  const redis = createClient({ url: redisUrl, disableOfflineQueue: true, socket: { reconnectStrategy: () => 100 } });
  redis.on('error', () => undefined);
  await redis.connect();
  const requests: Record<string, number> = {};

  async function run(command: unknown, base64: boolean): Promise<Reply> {
    if (!Array.isArray(command) || command.length === 0) return { error: 'ERR command must be a non-empty array' };
    try {
      const result = await redis.sendCommand(command.map(String));
      return { result: base64 ? encode(result) : result };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  }

  const server = createServer(
    (req, res) =>
      void (async () => {
        const path = new URL(req.url ?? '/', 'http://localhost').pathname;
        requests[path] = (requests[path] ?? 0) + 1;
        if (req.headers.authorization !== `Bearer ${token}`) return send(res, 401, { error: 'Unauthorized' });
        if (req.method !== 'POST') return send(res, 405, { error: 'ERR only POST is translated' });
        const base64 = String(req.headers['upstash-encoding'] ?? '').toLowerCase() === 'base64';
        let body: unknown;
        try {
          body = await readJson(req);
        } catch {
          return send(res, 400, { error: 'ERR failed to parse command' });
        }
        if (path === '/') {
          const reply = await run(body, base64);
          return send(res, 'error' in reply ? 400 : 200, reply);
        }
        if (path === '/pipeline' && Array.isArray(body)) {
          const replies: Reply[] = [];
          for (const command of body) replies.push(await run(command, base64));
          return send(res, 200, replies);
        }
        return send(res, 404, { error: 'ERR unknown endpoint' });
      })(),
  );
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await redis.close().catch(() => undefined);
    },
  };
}
