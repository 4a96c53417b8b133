/**
 * The baseline of every HTTP figure: a bare node:http server that answers each recorded path
 * with the status, headers and body the real server sent for it, from memory. Nothing runs per
 * request but the lookup, so it is the limit of the runtime for those bytes on this machine.
 * Usage: node bytes-server.ts <recordings.json>  (PORT and HOST from the environment)
 */
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

export interface Recording {
  path: string;
  status: number;
  headers: [string, string][];
  bodyBase64: string;
}

const recordings = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as Recording[];
const byPath = new Map(
  recordings.map((r) => {
    const body = Buffer.from(r.bodyBase64, 'base64');
    const headers = [...r.headers.flat(), 'content-length', String(body.length)];
    return [r.path, { status: r.status, headers, body }];
  }),
);

createServer((req, res) => {
  const found = byPath.get(req.url ?? '');
  if (!found) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(found.status, found.headers);
  res.end(req.method === 'HEAD' ? undefined : found.body);
}).listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');

// Stopped as the servers it is measured against are, so a profile it was asked for is written (scripts/bench/profile.ts).
process.once('SIGTERM', () => process.exit(0));
