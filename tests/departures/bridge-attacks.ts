/**
 * What a local attacker can send to the embedded database's bridge before knowing its token, and
 * a raw client that sends it and reports what came back. Shared by the bridge's own fuzz test
 * and the request fuzz run against the whole server.
 */
import { connect, type Socket } from 'node:net';
import fc from 'fast-check';
import type { BridgeAddress } from '../../service/storage/bridge-wire.ts';

export interface Attack {
  /** What is written, in this order, `gapMs` apart. */
  chunks: (string | Uint8Array)[];
  gapMs: number;
  /** End our side after the last chunk; otherwise wait for the server to close. */
  end: boolean;
}

export interface AttackOutcome {
  received: string;
  /** The server closed the connection within the wait. */
  closed: boolean;
  ms: number;
}

function openRaw(address: BridgeAddress): Socket {
  return 'path' in address ? connect({ path: address.path }) : connect({ host: '127.0.0.1', port: address.port });
}

/** Sends an attack on a fresh connection and waits up to `waitMs` for the server to close it. */
export function sendAttack(address: BridgeAddress, attack: Attack, waitMs: number): Promise<AttackOutcome> {
  const started = Date.now();
  const socket = openRaw(address);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  socket.on('error', () => undefined); // EPIPE or ECONNRESET once the server has closed: expected
  return new Promise((resolve) => {
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ received, closed, ms: Date.now() - started });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.once('close', () => finish(true));
    socket.once(
      'connect',
      () =>
        void (async () => {
          for (const chunk of attack.chunks) {
            if (socket.destroyed || settled) return;
            socket.write(chunk);
            if (attack.gapMs > 0) await new Promise((r) => setTimeout(r, attack.gapMs));
          }
          if (attack.end && !socket.destroyed) socket.end();
        })(),
    );
  });
}

const line = (text: string) => `${text}\n`;

/** Handshakes that are not `{"token": "<the token>"}`, in the many shapes a careless or hostile client sends. */
export const malformedHandshakes = [
  'null',
  'true',
  '0',
  '"token"',
  '[]',
  '{}',
  '{"token":null}',
  '{"token":1}',
  '{"token":["x"]}',
  '{"token":{"$bigint":"1"}}',
  '{"$bigint":"zz"}',
  '{"__proto__":{"token":"x"}}',
  '{"constructor":{"token":"x"}}',
  '{"token":"guessed"}',
  '{"token":"guessed","id":1,"op":"query","text":"DROP TABLE departures"}',
  '',
  '\r',
  'not json',
].map(line);

/** HTTP requests sent to the bridge by mistake or on purpose, with JSON lines in their bodies. */
export const httpShaped = [
  'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: probe\r\n\r\n',
  'POST /v1 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\nnull\n',
  'POST / HTTP/1.1\r\nHost: x\r\n\r\nnull\n{"id":1,"op":"query","text":"SELECT 1"}\nnull\n',
  'CONNECT 127.0.0.1:5432 HTTP/1.1\r\n\r\n{"token":null}\n',
];

export const attackArbitrary: fc.Arbitrary<Attack> = fc
  .record({
    text: fc.oneof(
      fc.constantFrom(...malformedHandshakes, ...httpShaped),
      fc.jsonValue({ maxDepth: 3 }).map((v) => line(JSON.stringify(v) ?? 'null')),
      fc
        .record({ token: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.string({ maxLength: 40 })) }, { requiredKeys: [] })
        .map((v) => line(JSON.stringify(v))),
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.integer({ min: 1025, max: 200_000 }).map((n) => `{"token":"${'a'.repeat(n)}"}`),
      fc.integer({ min: 1025, max: 200_000 }).map((n) => line(`{"token":"${'a'.repeat(n)}"}`)),
    ),
    bytes: fc.option(fc.uint8Array({ maxLength: 512 }), { nil: undefined }),
    pieces: fc.integer({ min: 1, max: 6 }),
    gapMs: fc.constantFrom(0, 0, 5, 40),
    end: fc.boolean(),
  })
  .map(({ text, bytes, pieces, gapMs, end }) => {
    const whole = Buffer.concat([Buffer.from(text, 'utf8'), Buffer.from(bytes ?? [])]);
    const size = Math.ceil(whole.length / pieces) || 1;
    const chunks: Uint8Array[] = [];
    for (let at = 0; at < whole.length; at += size) chunks.push(whole.subarray(at, at + size));
    return { chunks, gapMs, end };
  });
