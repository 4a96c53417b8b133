/**
 * Load from many loopback client addresses. Linux routes all of 127.0.0.0/8 to the loopback
 * interface, so each connection can bind its own source address (127.x.y.z) and the server sees
 * that many clients, each with its own quota. autocannon cannot bind a source address, so the
 * benchmark, the soak and the fairness test use this instead: keep-alive HTTP/1.1 connections
 * over bare sockets, one request at a time on each, answers read by their Content-Length (or
 * chunks), latency timed per request. A connection moves to a fresh address after
 * `requestsPerAddress` requests, so a long run at thousands of requests a second stays inside a
 * 120-a-minute quota per address, or, with one fixed address, floods from one client.
 */
import { connect, type Socket } from 'node:net';

export interface LoadOptions {
  port: number;
  host?: string;
  connections: number;
  durationMs: number;
  /** The request target of the n-th request (a fixed path, or one per request, e.g. unique URLs). */
  path: string | ((n: number) => string);
  headers?: Record<string, string>;
  /** The source address of a connection's g-th address (a fixed one floods from one client). */
  address: (connection: number, generation: number) => string;
  /** Requests sent from one address before the connection moves to the next (default: never). */
  requestsPerAddress?: number;
  /** Pause between a connection's answer and its next request (a paced client). */
  gapMs?: number;
  timeoutMs?: number;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  /** Completed requests per second. */
  rps: number;
  /** Latencies in milliseconds (fractional), one per completed request. */
  latencies: Float64Array;
  statuses: Map<number, number>;
  /** Connections refused or reset, and requests that got no answer in time. */
  errors: number;
  bytes: number;
  /** Source addresses used. */
  addresses: number;
}

/** A source address per index, from a block of 127/8 that the loopback tests leave alone. */
export function spreadAddress(index: number, block = 100): string {
  const i = index % (254 * 256 * 254);
  return `127.${block + ((i / (256 * 254)) | 0)}.${((i / 254) | 0) % 256}.${1 + (i % 254)}`;
}

let nextSpread = Math.floor(Math.random() * 1_000_000);

/** Addresses never used before by this process: each connection generation a new one. */
export function freshAddresses(block = 100): (connection: number, generation: number) => string {
  return () => spreadAddress(nextSpread++, block);
}

/** The p-th percentile (0 to 100) of `values`, sorted in place. */
export function percentile(values: Float64Array, p: number): number {
  if (values.length === 0) return NaN;
  values.sort();
  return values[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;
}

const headerEnd = Buffer.from('\r\n\r\n');

/**
 * The length of the answer at the start of `data` (headers and body), once its headers are in
 * (a chunked one once it is complete), or null before.
 */
function answerLength(data: Buffer): { length: number; status: number } | null {
  const end = data.indexOf(headerEnd);
  if (end < 0) return null;
  const head = data.toString('latin1', 0, end);
  const status = Number(head.slice(9, 12));
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length) {
    // The whole answer's length, which may be more than has arrived.
    return { length: end + 4 + Number(length[1]), status };
  }
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
    let at = end + 4;
    for (;;) {
      const lineEnd = data.indexOf('\r\n', at);
      if (lineEnd < 0) return null;
      const size = parseInt(data.toString('latin1', at, lineEnd), 16);
      at = lineEnd + 2 + size + 2;
      if (data.length < at) return null;
      if (size === 0) return { length: at, status };
    }
  }
  // 204, 304 and answers to HEAD carry no body.
  return { length: end + 4, status };
}

export function runLoad(options: LoadOptions): Promise<LoadResult> {
  const host = options.host ?? '127.0.0.1';
  const extra = Object.entries(options.headers ?? {})
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const fixed =
    typeof options.path === 'string'
      ? Buffer.from(`GET ${options.path} HTTP/1.1\r\nHost: ${host}:${options.port}\r\n${extra}\r\n`)
      : null;
  const requestBytes = (n: number) =>
    fixed ??
    Buffer.from(
      `GET ${(options.path as (n: number) => string)(n)} HTTP/1.1\r\nHost: ${host}:${options.port}\r\n${extra}\r\n`,
    );
  const perAddress = options.requestsPerAddress ?? Infinity;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let sent = 0;
  let errors = 0;
  let bytes = 0;
  let addresses = 0;
  const started = performance.now();
  const deadline = started + options.durationMs;

  const lane = (connection: number) =>
    new Promise<void>((done) => {
      let generation = 0;
      let socket: Socket | null = null;
      let onAddress = 0;
      let pending: Buffer = Buffer.alloc(0);
      let sentAt = 0;
      let expected = 0;
      let expectedStatus = 0;
      let received = 0;
      const complete = (status: number, length: number) => {
        clearTimeout(timer);
        expected = 0;
        latencies.push(performance.now() - sentAt);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        bytes += length;
        if (options.gapMs) setTimeout(send, options.gapMs);
        else send();
      };
      let timer: ReturnType<typeof setTimeout> | undefined;
      const finish = () => {
        clearTimeout(timer);
        socket?.destroy();
        done();
      };
      const send = () => {
        if (performance.now() >= deadline) return finish();
        if (!socket || onAddress >= perAddress) return open();
        onAddress += 1;
        sentAt = performance.now();
        socket.write(requestBytes(sent++));
        clearTimeout(timer);
        timer = setTimeout(() => {
          errors += 1;
          open();
        }, timeoutMs);
      };
      const open = () => {
        socket?.destroy();
        pending = Buffer.alloc(0);
        expected = 0;
        onAddress = 0;
        addresses += 1;
        const current = connect({
          port: options.port,
          host,
          localAddress: options.address(connection, generation++),
          noDelay: true,
        });
        socket = current;
        current.on('connect', send);
        current.on('data', (chunk: Buffer) => {
          if (current !== socket) return;
          // Once the headers gave a length, the body is only counted, not copied.
          if (expected > 0) {
            received += chunk.length;
            if (received < expected) return;
            if (received > expected) pending = chunk.subarray(chunk.length - (received - expected));
            complete(expectedStatus, expected);
            return;
          }
          pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
          const answer = answerLength(pending);
          if (!answer) return;
          if (answer.length > pending.length) {
            expected = answer.length;
            expectedStatus = answer.status;
            received = pending.length;
            pending = Buffer.alloc(0);
            return;
          }
          pending = pending.subarray(answer.length);
          complete(answer.status, answer.length);
        });
        const lost = () => {
          if (current !== socket) return;
          errors += 1;
          socket = null;
          if (performance.now() >= deadline) return finish();
          setTimeout(open, 10);
        };
        current.on('error', lost);
        current.on('end', lost);
      };
      open();
    });

  return Promise.all(Array.from({ length: options.connections }, (_, i) => lane(i))).then(() => {
    const seconds = (performance.now() - started) / 1000;
    return {
      requests: latencies.length,
      seconds,
      rps: latencies.length / seconds,
      latencies: Float64Array.from(latencies),
      statuses,
      errors,
      bytes,
      addresses,
    };
  });
}
