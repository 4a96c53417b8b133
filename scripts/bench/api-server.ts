/**
 * The /v1 handler without its host: a bare node:http server that turns each request into a
 * web Request, calls handleV1 with the catalogue read from the content folder, and writes the
 * Response. Between it and server.ts lie the request rules, the route table and the catalogue
 * function's memoised answers; between it and the bytes baseline lies the handler's own work.
 * Usage: node scripts/bench/api-server.ts [content-dir]  (PORT and HOST from the environment)
 */
import { createServer } from 'node:http';
import { handleV1 } from '../../service/v1/index.ts';
import { loadCatalogue, realContent } from '../../tests/helpers/content.ts';

const deps = {
  catalogue: loadCatalogue(process.argv[2] ?? realContent, process.env.SITE_URL ?? 'http://127.0.0.1:4321'),
  departures: null,
};
const origin = `http://${process.env.HOST ?? '127.0.0.1'}:${process.env.PORT}`;

createServer(
  (req, res) =>
    void (async () => {
      const response = await handleV1(new Request(origin + (req.url ?? '/'), { method: req.method ?? 'GET' }), deps);
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => (headers[name] = value));
      res.writeHead(response.status, headers);
      res.end(Buffer.from(await response.arrayBuffer()));
    })(),
).listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
