/**
 * The Node host's built files and their compressed forms (service/host/static-files.ts): the
 * forms the build made are sent as they are, never made again by a request; a build without them
 * still sends its files compressed, made on the thread pool.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { StaticFiles } from '../../service/host/static-files.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'static-files-'));
const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  rmSync(dir, { recursive: true, force: true });
});

const text = Buffer.from('A line of the catalogue, said again and again.\n'.repeat(200));

/** A server of `files` on a free loopback port. */
async function serving(files: StaticFiles): Promise<string> {
  const server = createServer((req, res) => {
    void Promise.resolve(files.serve(req.url ?? '/', req, res)).then((sent) => {
      if (!sent) res.writeHead(404).end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function brotliGet(url: string): Promise<{ encoding: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'Accept-Encoding': 'br' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

describe('built files and their compressed forms', () => {
  it("sends the build's Brotli form as it is (here one at quality 1, which no request would make)", async () => {
    const site = path.join(dir, 'a', 'site');
    const compressed = path.join(dir, 'a', 'compressed');
    mkdirSync(path.join(site, 'docs'), { recursive: true });
    mkdirSync(path.join(compressed, 'docs'), { recursive: true });
    writeFileSync(path.join(site, 'docs', 'notes.txt'), text);
    const quick = brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
    writeFileSync(path.join(compressed, 'docs', 'notes.txt.br'), quick);
    writeFileSync(path.join(compressed, 'docs', 'notes.txt.gz'), 'unused here');
    const url = await serving(new StaticFiles(site, compressed));
    const sent = await brotliGet(`${url}/docs/notes.txt`);
    expect(sent.encoding).toBe('br');
    expect(sent.body.equals(quick)).toBe(true);
    // A second request is the same bytes, from memory.
    expect((await brotliGet(`${url}/docs/notes.txt`)).body.equals(quick)).toBe(true);
  });

  it('sends a file of a build without compressed forms compressed all the same', async () => {
    const site = path.join(dir, 'b', 'site');
    mkdirSync(site, { recursive: true });
    writeFileSync(path.join(site, 'notes.txt'), text);
    const url = await serving(new StaticFiles(site, path.join(dir, 'b', 'compressed')));
    const sent = await brotliGet(`${url}/notes.txt`);
    expect(sent.encoding).toBe('br');
    expect(brotliDecompressSync(sent.body).equals(text)).toBe(true);
  });
});
