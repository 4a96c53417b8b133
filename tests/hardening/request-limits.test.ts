/**
 * Request limits of the local server: headers above 16 KB get 431; a client that dribbles its
 * headers is cut off by the header timeout (10 s by default; shown with 2 s on a server started
 * in this process, so the test does not wait out the default) with 408; a body above an
 * endpoint's cap is refused while it is still arriving, never buffered whole (measured on a
 * server of its own process); and all the while the server keeps answering everyone else.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { startServer, type RunningServer } from '../helpers/project.ts';
import { rawExchange, serialize } from './raw-http.ts';

let server: RunningServer;
let dataDir: string;
beforeAll(async () => {
  // A database the server creates itself, as a new site's: the memory measured is a new server's.
  dataDir = mkdtempSync(path.join(tmpdir(), 'request-limits-data-'));
  server = await startServer(inject('fixtureSite'), { DATA_DIR: dataDir });
});
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const residentMiB = () =>
  Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${server.process.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

/** A normal request from another client is answered meanwhile. */
async function othersServed(label: string, url = server.url): Promise<void> {
  const res = await fetch(`${url}/llms.txt`);
  await res.arrayBuffer();
  expect(res.status, label).toBe(200);
}

describe('header size', () => {
  it('answers 431 to headers, a request line or many headers above 16 KB, and closes the connection', async () => {
    const cases: [string, Buffer][] = [
      [
        'one huge header',
        serialize('GET', '/', [
          ['Host', 'x'],
          ['X-Big', 'b'.repeat(20_000)],
        ]),
      ],
      ['a huge request line', serialize('GET', `/v1/trips?region=${'r'.repeat(20_000)}`, [['Host', 'x']])],
      [
        'many headers',
        serialize('GET', '/treks', [
          ['Host', 'x'],
          ...Array.from({ length: 400 }, (_, i): [string, string] => [`X-H${i}`, 'v'.repeat(50)]),
        ]),
      ],
    ];
    for (const [label, bytes] of cases) {
      const x = await rawExchange(bytes, { port: server.port, untilClose: true });
      expect(x.responses[0]?.status, label).toBe(431);
      expect(x.responses[0]?.headers.get('connection'), label).toBe('close');
      expect(x.responses[0]?.body.toString(), label).toMatch(/too large/);
      expect(x.closed, label).toBe(true);
    }
    await othersServed('after 431s');
  });
});

describe('slow clients', () => {
  // The same server in this process, twice: as it starts by default, and with a header timeout of 2 s checked every 200 ms.
  const timeoutMs = 2_000;
  const checkMs = 200;
  let usual: InProcessServer;
  let quick: InProcessServer;
  beforeAll(async () => {
    const settings = { OPERATIONAL_STORAGE: 'off' };
    usual = await startInProcess(inject('fixtureSite'), settings);
    quick = await startInProcess(inject('fixtureSite'), settings, {
      timeouts: { headersMs: timeoutMs, checkEveryMs: checkMs },
    });
  });
  afterAll(async () => {
    await usual?.stop();
    await quick?.stop();
  });

  it('have 10 s to send their headers, by default', () => {
    expect(usual.server.headersTimeout).toBe(10_000);
    expect(quick.server.headersTimeout).toBe(timeoutMs);
  });

  it('are cut off at the header timeout when they dribble their headers (and idle ones), serving others meanwhile', async () => {
    const header = Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n');
    // Each sends a header line every tenth of the timeout, thirty in all: never done in time.
    const dribbles = Array.from({ length: 20 }, (_, i) => [
      header,
      ...Array.from({ length: 30 }, (_, k) => Buffer.from(`X-Slow-${k}: ${i}\r\n`)),
    ]);
    const slow = dribbles.map((pieces, i) =>
      rawExchange(pieces, {
        port: quick.port,
        pieceDelayMs: timeoutMs / 10,
        timeoutMs: 5 * timeoutMs,
        untilClose: true,
        localAddress: `127.0.3.${i + 1}`,
      }),
    );
    const idle = rawExchange(Buffer.alloc(0), { port: quick.port, timeoutMs: 5 * timeoutMs, untilClose: true });
    for (let step = 1; step <= 4; step += 1) {
      await new Promise((r) => setTimeout(r, (0.15 * timeoutMs) | 0));
      await othersServed(`while ${dribbles.length} clients dribble (${step})`, quick.url);
    }
    const results = await Promise.all(slow);
    for (const [i, x] of results.entries()) {
      expect(x.closed).toBe(true);
      expect(x.responses[0]?.status).toBe(408);
      // Cut at the timeout, not before, and while the client was still dribbling (its last line
      // would have come at three times the timeout): counted in lines, not by the clock.
      expect(x.ms).toBeGreaterThanOrEqual(0.9 * timeoutMs);
      expect(x.sent, `lines sent before the cut`).toBeLessThan(dribbles[i]!.length);
    }
    // Closed by the server before the client gave up on it (at five times the timeout).
    const idleResult = await idle;
    expect(idleResult.closed, 'a connection that never sends a byte').toBe(true);
  });
});

interface Upload {
  status: number | null;
  /** Body bytes written before the answer arrived. */
  sentBeforeAnswer: number;
  peakGrowthMiB: number;
}

/**
 * POSTs a body of up to `total` bytes as fast as the server takes it (chunked, or with its
 * Content-Length declared up front) and stops at the first answer.
 */
function upload(
  pathname: string,
  headers: [string, string][],
  framing: 'chunked' | 'declared',
  total: number,
  localAddress: string,
): Promise<Upload> {
  const baseline = residentMiB();
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, residentMiB())), 50);
  return new Promise((resolve) => {
    const socket = connect({ port: server.port, host: '127.0.0.1', localAddress });
    let sent = 0;
    let answer = '';
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearInterval(sampler);
      socket.destroy();
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1];
      resolve({
        status: status ? Number(status) : null,
        sentBeforeAnswer: sent,
        peakGrowthMiB: Math.max(peak, residentMiB()) - baseline,
      });
    };
    setTimeout(finish, 20_000);
    socket.on('data', (d: Buffer) => {
      answer += d.toString('latin1');
      if (answer.includes('\r\n\r\n')) finish();
    });
    socket.on('close', finish);
    socket.on('error', () => undefined);
    const chunk = Buffer.alloc(256 * 1024, '{"a":"xxxxxxxx"}');
    const framingHeader: [string, string] =
      framing === 'chunked' ? ['Transfer-Encoding', 'chunked'] : ['Content-Length', String(total)];
    socket.on(
      'connect',
      () =>
        void (async () => {
          socket.write(serialize('POST', pathname, [['Host', 'x'], ...headers, framingHeader]));
          while (!done && sent < total) {
            const piece =
              framing === 'chunked'
                ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])
                : chunk;
            sent += chunk.length;
            if (!socket.write(piece)) await new Promise((r) => socket.once('drain', r).once('close', r));
            // Back to the event loop before the next piece, so an answer that has come is read: once
            // the server answers, it reads the rest of the body off the wire (Node does, to keep the
            // connection), the kernel then takes each write at once, and 'drain' alone never leaves
            // this loop for the poll (an answer read only after 18 MiB on a busy machine).
            await new Promise((r) => setImmediate(r));
          }
        })(),
    );
  });
}

describe('body size', () => {
  const json: [string, string][] = [['Content-Type', 'application/json']];
  const endpoints: { path: string; headers: [string, string][] }[] = [
    { path: '/api/bookings', headers: json },
    { path: '/mcp', headers: [...json, ['Accept', 'application/json, text/event-stream']] },
    { path: '/agent/auth', headers: json },
    { path: '/agent/identity', headers: json },
    { path: '/oauth/token', headers: [['Content-Type', 'application/x-www-form-urlencoded']] },
  ];
  const total = 64 * 1024 * 1024;

  it(
    'refuses bodies above the cap while they arrive, without buffering them, and keeps serving others',
    { timeout: 60_000 },
    async () => {
      const results: string[] = [];
      let client = 1;
      for (const { path, headers } of endpoints) {
        for (const framing of ['declared', 'chunked'] as const) {
          const running = upload(path, headers, framing, total, `127.0.4.${client++}`);
          await othersServed(`during a ${framing} upload to ${path}`);
          const result = await running;
          results.push(
            `${path} ${framing}: ${result.status}, ${(result.sentBeforeAnswer / 2 ** 20).toFixed(1)} MiB sent, RSS +${result.peakGrowthMiB.toFixed(1)} MiB`,
          );
          const label = results.at(-1);
          expect(result.status, label).toBeGreaterThanOrEqual(400);
          expect(result.status, label).toBeLessThan(500);
          // Loopback buffers hold a few MiB; an endpoint that read the whole body would take all 64.
          expect(result.sentBeforeAnswer, label).toBeLessThan(16 * 2 ** 20);
          expect(result.peakGrowthMiB, label).toBeLessThan(32);
        }
      }
      console.info(`[request-limits] ${results.join('; ')}`);
      await othersServed('after the uploads');
    },
  );
});
