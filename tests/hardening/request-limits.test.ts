/**
 * Request limits of the local server: headers above 16 KB get 431; a client that dribbles its
 * headers is cut off by the header timeout (10 s) with 408; a body above an endpoint's cap is
 * refused while it is still arriving, never buffered whole; and all the while the server keeps
 * answering everyone else.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/project.ts';
import { rawExchange, serialize } from './raw-http.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(inject('fixtureSite'));
});
afterAll(() => server?.stop());

const residentMiB = () => Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${server.process.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

/** A normal request from another client must be answered quickly meanwhile. */
async function othersServed(label: string): Promise<void> {
  const started = Date.now();
  const res = await fetch(`${server.url}/llms.txt`);
  await res.arrayBuffer();
  expect(res.status, label).toBe(200);
  expect(Date.now() - started, `${label}: ms for another client`).toBeLessThan(2000);
}

describe('header size', () => {
  it('answers 431 to headers, a request line or many headers above 16 KB, and closes the connection', async () => {
    const cases: [string, Buffer][] = [
      ['one huge header', serialize('GET', '/', [['Host', 'x'], ['X-Big', 'b'.repeat(20_000)]])],
      ['a huge request line', serialize('GET', `/v1/trips?region=${'r'.repeat(20_000)}`, [['Host', 'x']])],
      ['many headers', serialize('GET', '/treks', [['Host', 'x'], ...Array.from({ length: 400 }, (_, i): [string, string] => [`X-H${i}`, 'v'.repeat(50)])])],
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
  it('cuts off clients that dribble their headers (and idle ones) at the header timeout, serving others meanwhile', { timeout: 30_000 }, async () => {
    const header = Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n');
    const dribbles = Array.from({ length: 20 }, (_, i) => [header, ...Array.from({ length: 30 }, (_, k) => Buffer.from(`X-Slow-${k}: ${i}\r\n`))]);
    const started = Date.now();
    const slow = dribbles.map((pieces, i) => rawExchange(pieces, { port: server.port, pieceDelayMs: 1000, timeoutMs: 25_000, untilClose: true, localAddress: `127.0.3.${i + 1}` }));
    const idle = rawExchange(Buffer.alloc(0), { port: server.port, timeoutMs: 25_000, untilClose: true });
    for (let second = 1; second <= 4; second += 1) {
      await new Promise((r) => setTimeout(r, 1500));
      await othersServed(`while ${dribbles.length} clients dribble (${second})`);
    }
    const results = await Promise.all(slow);
    for (const x of results) {
      expect(x.closed).toBe(true);
      expect(x.responses[0]?.status).toBe(408);
      // headersTimeout is 10 s, checked every second.
      expect(x.ms).toBeGreaterThanOrEqual(9_000);
      expect(x.ms).toBeLessThan(14_000);
    }
    const idleResult = await idle;
    expect(idleResult.closed, 'a connection that never sends a byte').toBe(true);
    expect(idleResult.ms).toBeLessThan(14_000);
    expect(Date.now() - started).toBeLessThan(20_000);
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
function upload(pathname: string, headers: [string, string][], framing: 'chunked' | 'declared', total: number, localAddress: string): Promise<Upload> {
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
      resolve({ status: status ? Number(status) : null, sentBeforeAnswer: sent, peakGrowthMiB: Math.max(peak, residentMiB()) - baseline });
    };
    setTimeout(finish, 20_000);
    socket.on('data', (d: Buffer) => {
      answer += d.toString('latin1');
      if (answer.includes('\r\n\r\n')) finish();
    });
    socket.on('close', finish);
    socket.on('error', () => undefined);
    const chunk = Buffer.alloc(256 * 1024, '{"a":"xxxxxxxx"}');
    const framingHeader: [string, string] = framing === 'chunked' ? ['Transfer-Encoding', 'chunked'] : ['Content-Length', String(total)];
    socket.on('connect', () => void (async () => {
      socket.write(serialize('POST', pathname, [['Host', 'x'], ...headers, framingHeader]));
      while (!done && sent < total) {
        const piece = framing === 'chunked' ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk;
        sent += chunk.length;
        if (!socket.write(piece)) await new Promise((r) => socket.once('drain', r).once('close', r));
      }
    })());
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

  it('refuses bodies above the cap while they arrive, without buffering them, and keeps serving others', { timeout: 60_000 }, async () => {
    const results: string[] = [];
    let client = 1;
    for (const { path, headers } of endpoints) {
      for (const framing of ['declared', 'chunked'] as const) {
        const running = upload(path, headers, framing, total, `127.0.4.${client++}`);
        await othersServed(`during a ${framing} upload to ${path}`);
        const result = await running;
        results.push(`${path} ${framing}: ${result.status}, ${(result.sentBeforeAnswer / 2 ** 20).toFixed(1)} MiB sent, RSS +${result.peakGrowthMiB.toFixed(1)} MiB`);
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
  });
});
