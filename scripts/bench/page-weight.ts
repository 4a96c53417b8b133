/**
 * Page weight of the home page and a trip page: the HTML and the CSS and JavaScript it loads,
 * raw, gzip (level 9) and Brotli (quality 11, what StaticFiles precompresses with), and what
 * the server actually sends to a client accepting `br, gzip`.
 */
import { request } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { ChildServer } from './processes.ts';
import { fixed, type Section } from './report.ts';

interface Fetched {
  body: Buffer;
  encoding: string;
}

function get(url: string, acceptEncoding?: string): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        res.statusCode === 200
          ? resolve({ body: Buffer.concat(chunks), encoding: String(res.headers['content-encoding'] ?? 'identity') })
          : reject(new Error(`${url}: ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** Same-origin stylesheets and scripts a page loads (inline ones are part of the HTML). */
function pageAssets(html: string): { css: string[]; js: string[] } {
  const attr = (tag: string, name: string) => new RegExp(`\\b${name}=["']([^"']+)["']`).exec(tag)?.[1];
  const css = new Set<string>();
  const js = new Set<string>();
  for (const tag of html.match(/<link\b[^>]*>/gi) ?? []) {
    const rel = attr(tag, 'rel') ?? '';
    const href = attr(tag, 'href');
    if (!href) continue;
    if (/\bstylesheet\b/.test(rel)) css.add(href);
    if (/\bmodulepreload\b/.test(rel)) js.add(href);
  }
  for (const tag of html.match(/<script\b[^>]*>/gi) ?? []) {
    const src = attr(tag, 'src');
    if (src) js.add(src);
  }
  return { css: [...css].filter((u) => u.startsWith('/')), js: [...js].filter((u) => u.startsWith('/')) };
}

interface Weight {
  files: number;
  raw: number;
  gzip: number;
  br: number;
  served: number;
}

async function weigh(origin: string, paths: string[]): Promise<Weight> {
  const w: Weight = { files: paths.length, raw: 0, gzip: 0, br: 0, served: 0 };
  for (const p of paths) {
    const { body } = await get(`${origin}${p}`);
    w.raw += body.length;
    w.gzip += gzipSync(body, { level: 9 }).length;
    w.br += brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    w.served += (await get(`${origin}${p}`, 'br, gzip')).body.length;
  }
  return w;
}

export async function pageWeightSection(
  server: ChildServer,
  pages: { label: string; path: string }[],
): Promise<Section> {
  const rows: string[][] = [];
  const findings: string[] = [];
  for (const page of pages) {
    const html = (await get(`${server.url}${page.path}`)).body.toString('utf8');
    const assets = pageAssets(html);
    const parts: [string, Weight][] = [
      ['HTML', await weigh(server.url, [page.path])],
      ['CSS', await weigh(server.url, assets.css)],
      ['JS', await weigh(server.url, assets.js)],
    ];
    const total = parts.reduce<Weight>(
      (t, [, w]) => ({
        files: t.files + w.files,
        raw: t.raw + w.raw,
        gzip: t.gzip + w.gzip,
        br: t.br + w.br,
        served: t.served + w.served,
      }),
      { files: 0, raw: 0, gzip: 0, br: 0, served: 0 },
    );
    for (const [part, w] of [...parts, ['Total', total] as [string, Weight]]) {
      rows.push([
        `${page.label} \`${page.path}\`: ${part}`,
        String(w.files),
        fixed(w.raw),
        fixed(w.gzip),
        fixed(w.br),
        fixed(w.served),
      ]);
    }
    const served = (await get(`${server.url}${page.path}`, 'br, gzip')).encoding;
    findings.push(
      `${page.label}: ${fixed(total.br)} bytes with Brotli in ${total.files} files; the HTML is served ${served === 'identity' ? 'uncompressed' : `with ${served}`}.`,
    );
  }
  return {
    title: 'Page weight',
    about:
      'Bytes of each page and of the same-origin CSS and JavaScript it loads, raw and compressed here (gzip level 9, Brotli quality 11), and as the local server sends them to a client that accepts `br, gzip`.',
    header: ['Page and part', 'Files', 'Raw bytes', 'gzip', 'Brotli', 'As served'],
    rows,
    findings,
  };
}
