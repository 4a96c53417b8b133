/**
 * Serving the files Astro built, for the Node host: the right media type, a strong ETag and 304,
 * long-lived caching for fingerprinted assets, and gzip or Brotli when the client accepts it.
 * Files are read once and kept in memory with their compressed forms (the site is small).
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';
import { memoise } from '../http/bounded-memo.ts';
import { notModifiedRaw } from '../http/not-modified.ts';
import { cachePolicy } from '../http/cache-policy.ts';

export const mediaTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  // As Vercel's static files say it: an XML document names its own encoding.
  '.xml': 'application/xml',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.ics': 'text/calendar; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

interface CachedFile {
  body: Buffer;
  gzip?: Buffer;
  br?: Buffer;
  etag: string;
  type: string;
}

const compressible = /^(text\/|application\/(json|xml|linkset\+json|manifest\+json)|image\/svg)/;
/** Text files whose media type the build's routes give (the peak dataset's formats): compressed like the others. */
const compressibleExtensions = new Set(['.geojson', '.csv', '.cff']);

export class StaticFiles {
  readonly #dir: string;
  /**
   * The built files, listed once, and those read so far, keyed by file. Keying by file rather
   * than by request path bounds memory by the size of the site: a path that names no file, or
   * another spelling of one (`//a`, `/%61`), adds nothing and costs no file-system call.
   */
  readonly #files: Set<string>;
  readonly #cache = new Map<string, Promise<CachedFile>>();
  /** The files read so far, for serving without waiting on a promise. */
  readonly #ready = new Map<string, CachedFile>();
  constructor(dir: string) {
    this.#dir = path.resolve(dir);
    this.#files = new Set(
      readdirSync(this.#dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.join(entry.parentPath, entry.name)),
    );
  }

  #read(full: string): Promise<CachedFile> {
    let file = this.#cache.get(full);
    if (!file) {
      file = readFile(full).then((body) => {
        const type = mediaTypes[path.extname(full)] ?? 'application/octet-stream';
        const found: CachedFile = {
          body,
          type,
          etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`,
        };
        if ((compressible.test(type) || compressibleExtensions.has(path.extname(full))) && body.length > 512) {
          found.gzip = gzipSync(body, { level: 9 });
          found.br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
        }
        this.#ready.set(full, found);
        return found;
      });
      // A file that cannot be read now is tried again next time.
      file.catch(() => this.#cache.delete(full));
      this.#cache.set(full, file);
    }
    return file;
  }

  /** The built file a path names, looked up once per path. */
  readonly #locate = memoise((pathname: string) => this.#find(pathname));

  /** The built file a path names: itself, or with `.html` (clean URLs), or `index.html` for `/`. */
  #find(pathname: string): string | null {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return null;
    }
    const candidates = decoded.endsWith('/') ? [`${decoded}index.html`] : [decoded, `${decoded}.html`];
    for (const candidate of candidates) {
      const full = path.join(this.#dir, path.normalize(candidate));
      if (!full.startsWith(this.#dir + path.sep)) break;
      if (this.#files.has(full)) return full;
    }
    return null;
  }

  async #load(pathname: string): Promise<CachedFile | null> {
    const full = this.#locate(pathname);
    return full ? this.#read(full).catch(() => null) : null;
  }

  /** True when a file answers `pathname` (the file itself, or `<pathname>.html`). */
  has(pathname: string): boolean {
    return this.#locate(pathname) !== null;
  }

  /**
   * Sends the file for `pathname` if there is one; false when there is none. `headers` (the
   * rules' and the build's) come first: a media type or cache policy given there wins over the
   * file's defaults. Written in one go, the headers as one flat list, which is what keeps
   * serving a file cheap.
   */
  async serve(
    pathname: string,
    req: IncomingMessage,
    res: ServerResponse,
    status = 200,
    headers: Record<string, string> = {},
  ): Promise<boolean> {
    const full = this.#locate(pathname);
    const file = (full && this.#ready.get(full)) ?? (await this.#load(pathname));
    if (!file) return false;
    let type = file.type;
    let cache: string = pathname.startsWith('/_astro/') ? cachePolicy.immutable : cachePolicy.page;
    let vary: string | undefined;
    const raw: string[] = [];
    for (const name in headers) {
      const value = headers[name]!;
      const low = lowerCase(name);
      if (low === 'content-type') type = value;
      else if (low === 'cache-control') cache = value;
      else if (low === 'vary') vary = value;
      else if (low !== 'etag') raw.push(name, value);
    }
    raw.push('Content-Type', type, 'Cache-Control', cache, 'ETag', file.etag);
    if (file.gzip) vary = vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding';
    if (vary) raw.push('Vary', vary);
    if (
      status === 200 &&
      req.headers['if-none-match']?.split(',').some((t) => t.trim().replace(/^W\//, '') === file.etag)
    ) {
      res.writeHead(304, notModifiedRaw(raw));
      res.end();
      return true;
    }
    const accepted = String(req.headers['accept-encoding'] ?? '');
    let body = file.body;
    if (file.br && /\bbr\b/.test(accepted)) {
      body = file.br;
      raw.push('Content-Encoding', 'br');
    } else if (file.gzip && /\bgzip\b/.test(accepted)) {
      body = file.gzip;
      raw.push('Content-Encoding', 'gzip');
    }
    raw.push('Content-Length', String(body.length));
    res.writeHead(status, raw);
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  }
}

const lowerNames = new Map<string, string>();

/** A header name in lower case; the names a host sets are few, so each is lowered once. */
export function lowerCase(name: string): string {
  let low = lowerNames.get(name);
  if (low === undefined) {
    low = name.toLowerCase();
    if (lowerNames.size < 256) lowerNames.set(name, low);
  }
  return low;
}
