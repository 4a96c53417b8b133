/**
 * The host without its rules: a bare node:http server that serves the built files through the
 * same StaticFiles as server.ts, and nothing else. Compared with server.ts on a static page it
 * shows what the request rules and the web Request around them cost over HTTP.
 * Usage, in a built project: node scripts/bench/static-server.ts  (PORT and HOST from the environment)
 */
import { createServer } from 'node:http';
import path from 'node:path';
import { StaticFiles } from '../../service/host/static-files.ts';

const files = new StaticFiles(path.resolve(import.meta.dirname, '..', '..', 'dist', 'site'));

createServer(
  (req, res) =>
    void (async () => {
      const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
      if (await files.serve(pathname, req, res)) return;
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Not found\n');
    })(),
).listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
