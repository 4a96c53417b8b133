/**
 * The site under test: the real content built in a scratch copy of the project (as the tests
 * build theirs), its server started through the bench entry, and recordings of its answers
 * for the bytes baseline.
 */
import { request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildProject, copyProject, type ProjectCopy } from '../../tests/helpers/project.ts';
import { realContent } from '../../tests/helpers/content.ts';
import type { Recording } from './bytes-server.ts';
import { startChildServer, type ChildServer, type ChildServerOptions } from './processes.ts';

export const benchSiteUrl = 'http://127.0.0.1:4321';

export interface BuiltSite {
  copy: ProjectCopy;
  buildSeconds: number;
}

export function buildSite(content = realContent, env: Record<string, string> = {}): BuiltSite {
  const copy = copyProject({ content });
  const started = performance.now();
  const result = buildProject(copy.dir, { SITE_URL: benchSiteUrl, ...env });
  const buildSeconds = (performance.now() - started) / 1000;
  if (result.status !== 0) {
    copy.remove();
    throw new Error(`build of ${content} failed:\n${result.output.slice(-4000)}`);
  }
  return { copy, buildSeconds };
}

/** The Node options `npm run serve` and `npm start` give the server (package.json), so the bench runs the host as it is run. */
function serveNodeOptions(dir: string): string[] {
  const scripts = (
    JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts;
  return (scripts.serve ?? '').split(/\s+/).filter((word) => word.startsWith('--'));
}

/** How a host of the built copy in `dir` is started: in it, with `npm run serve`'s Node options and the bench's address. */
function asServed(dir: string, env: Record<string, string>): ChildServerOptions {
  return { cwd: dir, nodeOptions: serveNodeOptions(dir), env: { SITE_URL: benchSiteUrl, ...env } };
}

/** server.ts exactly as `npm start` runs it (its Node options, the real in-process counter store), in a built copy. */
export function startBenchServer(dir: string, env: Record<string, string> = {}): Promise<ChildServer> {
  return startChildServer(path.join(dir, 'server.ts'), asServed(dir, env));
}

/** The same server with the bench-only counter store that never limits (scripts/bench/serve.ts), for split rows only. */
export function startNeverLimitingServer(dir: string, env: Record<string, string> = {}): Promise<ChildServer> {
  return startChildServer(path.join(dir, 'scripts', 'bench', 'serve.ts'), asServed(dir, env));
}

/** Opens (and seeds) a started server's embedded store with a first departures request, so that no measured request does. */
export async function openEmbeddedStore(server: ChildServer): Promise<void> {
  await (await fetch(`${server.url}/v1/departures`)).arrayBuffer();
}

const hopByHop = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** One answer as the load generator receives it: a GET with only a Host header. */
export function record(origin: string, pathname: string, headers: Record<string, string> = {}): Promise<Recording> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${pathname}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!;
          if (!hopByHop.has(name.toLowerCase())) pairs.push([name, res.rawHeaders[i + 1]!]);
        }
        resolve({
          path: pathname,
          status: res.statusCode ?? 0,
          headers: pairs,
          bodyBase64: Buffer.concat(chunks).toString('base64'),
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The bytes baseline (bytes-server.ts) answering the given recordings. */
export async function startBytesServer(recordings: Recording[], nodeOptions = ''): Promise<ChildServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-bytes-'));
  const file = path.join(dir, 'recordings.json');
  writeFileSync(file, JSON.stringify(recordings));
  const server = await startChildServer(path.join(import.meta.dirname, 'bytes-server.ts'), {
    cwd: dir,
    args: [file],
    env: nodeOptions ? { NODE_OPTIONS: nodeOptions } : {},
    readyPath: recordings[0]?.path ?? '/',
  });
  return {
    ...server,
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
