/**
 * A real HTTP server on 127.0.0.1 that speaks the part of Resend's API the enquiries use:
 * POST /emails with a Bearer key and a JSON body, answering `{ id }`. Like Resend it honours
 * Idempotency-Key: a repeated key gets the first answer back and sends nothing new. It records
 * every request, and can be told to fail (HTTP 500), to hang (never answer) or to cut one
 * connection, and to take its time (`delayMs`) over each email it sends.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  body: Record<string, unknown>;
}

/** `reset-once`: the next request's connection is cut without an answer, then back to `ok`. */
type FakeMode = 'ok' | 'fail' | 'hang' | 'reset-once';

export interface FakeResend {
  url: string;
  apiKey: string;
  mode: FakeMode;
  /** How long each email takes to be accepted (in `ok` mode), so tests can catch enquiries in flight. */
  delayMs: number;
  /** The idempotency keys of the emails it is taking its time over now. */
  inFlight: Set<string>;
  requests: RecordedRequest[];
  /** Emails actually "sent": one per distinct idempotency key. */
  sent: RecordedRequest[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startFakeResend(apiKey = 're_test_key'): Promise<FakeResend> {
  const byKey = new Map<string, string>();
  const hanging = new Set<ServerResponse>();
  let counter = 0;
  const fake: FakeResend = {
    url: '',
    apiKey,
    mode: 'ok',
    delayMs: 0,
    inFlight: new Set(),
    requests: [],
    sent: [],
    close: async () => undefined,
  };

  const server = createServer(
    (req, res) =>
      void (async () => {
        const text = await readBody(req);
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          // recorded as an empty body; answered below
        }
        const key = req.headers['idempotency-key'];
        const recorded: RecordedRequest = {
          method: req.method ?? '',
          path: req.url ?? '',
          authorization: req.headers.authorization,
          idempotencyKey: typeof key === 'string' ? key : undefined,
          body,
        };
        fake.requests.push(recorded);
        if (req.method !== 'POST' || req.url !== '/emails')
          return reply(res, 404, { statusCode: 404, name: 'not_found', message: 'Not found' });
        if (req.headers.authorization !== `Bearer ${apiKey}`)
          return reply(res, 401, { statusCode: 401, name: 'missing_api_key', message: 'Missing API key' });
        if (fake.mode === 'reset-once') {
          fake.mode = 'ok';
          req.socket.destroy();
          return;
        }
        if (fake.mode === 'hang') {
          hanging.add(res);
          return;
        }
        if (fake.mode === 'fail')
          return reply(res, 500, { statusCode: 500, name: 'internal_server_error', message: 'Something broke' });
        if (!body.from || !body.to || !body.subject)
          return reply(res, 422, {
            statusCode: 422,
            name: 'validation_error',
            message: 'from, to and subject are required',
          });
        if (fake.delayMs > 0) {
          const key = recorded.idempotencyKey ?? '';
          fake.inFlight.add(key);
          await new Promise((resolve) => setTimeout(resolve, fake.delayMs));
          fake.inFlight.delete(key);
        }
        const earlier = recorded.idempotencyKey ? byKey.get(recorded.idempotencyKey) : undefined;
        if (earlier) return reply(res, 200, { id: earlier });
        counter += 1;
        const id = `email-${counter}`;
        if (recorded.idempotencyKey) byKey.set(recorded.idempotencyKey, id);
        fake.sent.push(recorded);
        return reply(res, 200, { id });
      })(),
  );
  // Idle connections stay open as long as a test runs, so only the modes above ever cut one.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
