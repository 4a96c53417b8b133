/**
 * `fetch` from a loopback address of the test's choosing (127.x.y.z): the server sees each
 * address as a client of its own, with its own quotas, so tests that count quotas share one
 * server and still start every count from zero. Node's fetch cannot bind a source address; this
 * asks with node:http (a new connection each time) and hands back a web Response.
 */
import { request } from 'node:http';
import { spreadAddress } from './loopback-load.ts';

/** A block of 127/8 no other loopback helper gives out (loopback-load.ts uses 100 and up for load). */
const block = 60;
let next = Math.floor(Math.random() * 100_000);

/** A loopback address this process has not used before. */
function freshClientAddress(): string {
  return spreadAddress(next++, block);
}

export type ClientFetch = (
  url: string,
  init?: { method?: string; headers?: Record<string, string>; body?: string },
) => Promise<Response>;

/** A fetch whose every request comes from `localAddress` (a fresh one by default). */
export function clientAt(localAddress = freshClientAddress()): ClientFetch & { address: string } {
  const fetchFrom: ClientFetch = (url, init = {}) =>
    new Promise((resolve, reject) => {
      const target = new URL(url);
      const req = request(
        {
          host: target.hostname,
          port: target.port,
          path: `${target.pathname}${target.search}`,
          method: init.method ?? 'GET',
          headers: init.headers,
          localAddress,
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              if (value === undefined) continue;
              for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
            }
            const status = res.statusCode ?? 0;
            const empty = status === 204 || status === 304 || init.method === 'HEAD';
            resolve(
              new Response(empty ? null : Buffer.concat(chunks), {
                status,
                statusText: res.statusMessage ?? '',
                headers,
              }),
            );
          });
        },
      );
      req.on('error', reject);
      req.end(init.body);
    });
  return Object.assign(fetchFrom, { address: localAddress });
}
