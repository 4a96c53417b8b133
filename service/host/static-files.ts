/**
 * Serving the files Astro built, for the Node host: the right media type, a strong ETag and 304,
 * long-lived caching for fingerprinted assets, and gzip or Brotli when the client accepts it.
 * A file is read at its first request and kept in memory with its compressed forms (the site is
 * small), which the build made once (scripts/compress-build.ts): no request compresses a built
 * file. A build without them (one made for Vercel and served here) has its files compressed on
 * the thread pool at their first request, never on the event loop.
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { memoise } from '../http/bounded-memo.ts';
import { notModifiedRaw } from '../http/not-modified.ts';
import { cachePolicy } from '../http/cache-policy.ts';
import type { RuleHeaders } from '../rules/index.ts';

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
  /** Its header lists for shared (frozen) rules' and build's headers, by status and kind of path, made on first use. */
  lists: WeakMap<object, WeakMap<object, Map<number, HeaderLists>>>;
}

const compressibleTypes = /^(text\/|application\/(json|xml|linkset\+json|manifest\+json)|image\/svg)/;
/** Text files whose media type the build's routes give (the peak dataset's formats): compressed like the others. */
const compressibleExtensions = new Set(['.geojson', '.csv', '.cff']);
/** Below this, compression saves less than its headers cost. */
const compressFromBytes = 512;

/** The media type a built file is served with, by its name (the build's routes may say otherwise). */
function mediaTypeOf(file: string): string {
  return mediaTypes[path.extname(file)] ?? 'application/octet-stream';
}

/** Whether a built file of `size` bytes is sent compressed: text of some size, by type or name. */
export function isCompressible(file: string, size: number): boolean {
  return (
    size > compressFromBytes &&
    (compressibleTypes.test(mediaTypeOf(file)) || compressibleExtensions.has(path.extname(file)))
  );
}

/** Each compressed form as the build writes it: Brotli at its highest quality, gzip at its highest level. */
export const compressedForms = {
  br: (body: Buffer) =>
    promisify(brotliCompress)(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  gzip: (body: Buffer) => promisify(gzip)(body, { level: 9 }),
} as const;

/** Where the build keeps a file's compressed form: `compressed/<path>.br`, `.gz`. */
export const compressedName = { br: '.br', gzip: '.gz' } as const;

export class StaticFiles {
  readonly #dir: string;
  /** The build's compressed forms of its files (scripts/compress-build.ts), when it has them. */
  readonly #compressedDir: string | null;
  /**
   * The built files, listed once, and those read so far, keyed by file. Keying by file rather
   * than by request path bounds memory by the size of the site: a path that names no file, or
   * another spelling of one (`//a`, `/%61`), adds nothing and costs no file-system call.
   */
  readonly #files: Set<string>;
  readonly #cache = new Map<string, Promise<CachedFile>>();
  /** The files read so far, for serving without waiting on a promise. */
  readonly #ready = new Map<string, CachedFile>();
  constructor(dir: string, compressedDir: string | null = null) {
    this.#dir = path.resolve(dir);
    this.#compressedDir = compressedDir && path.resolve(compressedDir);
    this.#files = new Set(
      readdirSync(this.#dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.join(entry.parentPath, entry.name)),
    );
  }

  #read(full: string): Promise<CachedFile> {
    let file = this.#cache.get(full);
    if (!file) {
      file = readFile(full).then(async (body) => {
        const found: CachedFile = {
          body,
          type: mediaTypeOf(full),
          lists: new WeakMap(),
          etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`,
        };
        if (isCompressible(full, body.length)) {
          [found.br, found.gzip] = await Promise.all([
            this.#compressed(full, body, 'br'),
            this.#compressed(full, body, 'gzip'),
          ]);
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

  /** A file's compressed form as the build wrote it, or made now on the thread pool when the build has none. */
  async #compressed(full: string, body: Buffer, form: keyof typeof compressedForms): Promise<Buffer> {
    if (this.#compressedDir) {
      const copy = path.join(this.#compressedDir, path.relative(this.#dir, full) + compressedName[form]);
      try {
        return await readFile(copy);
      } catch {
        // Not compressed at build: made below.
      }
    }
    return compressedForms[form](body);
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

  /** True when a file answers `pathname` (the file itself, or `<pathname>.html`). */
  has(pathname: string): boolean {
    return this.#locate(pathname) !== null;
  }

  /**
   * Sends the file for `pathname` if there is one; false when there is none. `headers` (the
   * rules') and `fileHeaders` (the build's, which win over the rules') come first: a media type
   * or cache policy given there wins over the file's defaults. Answered at once (true) when the
   * file is in memory, else a promise of it. Written in one go, the headers as one flat list;
   * for headers shared by every request to the path (frozen), each variant's list (plain, gzip,
   * Brotli, 304) is made once and kept with the file.
   */
  serve(
    pathname: string,
    req: IncomingMessage,
    res: ServerResponse,
    status: 200 | 404 = 200,
    rules: RuleHeaders = { headers: noHeaders },
    fileHeaders: Readonly<Record<string, string>> = noHeaders,
  ): boolean | Promise<boolean> {
    const full = this.#locate(pathname);
    if (!full) return false;
    const file = this.#ready.get(full);
    if (file) return this.#send(file, pathname, req, res, status, rules, fileHeaders);
    return this.#read(full).then(
      (read) => this.#send(read, pathname, req, res, status, rules, fileHeaders),
      () => false,
    );
  }

  #send(
    file: CachedFile,
    pathname: string,
    req: IncomingMessage,
    res: ServerResponse,
    status: 200 | 404,
    rules: RuleHeaders,
    fileHeaders: Readonly<Record<string, string>>,
  ): true {
    // Shared headers: every list made once, a counted request's rate-limit headers put in their
    // place (CountedHeaders). Other headers of one request alone: only the list sent is made.
    const counted = rules.counted;
    const headers = counted ? counted.shared : rules.headers;
    const lists =
      Object.isFrozen(headers) && Object.isFrozen(fileHeaders)
        ? this.#sharedLists(file, pathname, status, headers, fileHeaders, counted?.after ?? 0)
        : null;
    const limits = counted && lists ? counted.limits : null;
    if (status === 200) {
      const tags = req.headers['if-none-match'];
      if (tags !== undefined && tags.split(',').some((t) => t.trim().replace(/^W\//, '') === file.etag)) {
        res.writeHead(
          304,
          lists
            ? withLimits(lists, lists.notModified, lists.notModifiedAt, limits)
            : notModifiedRaw(commonList(file, pathname, rules.headers, fileHeaders).raw),
        );
        res.end();
        return true;
      }
    }
    let encoding: 'gzip' | 'br' | null = null;
    if (file.gzip) {
      const accepted = req.headers['accept-encoding'];
      if (accepted !== undefined) {
        if (file.br && /\bbr\b/.test(accepted)) encoding = 'br';
        else if (/\bgzip\b/.test(accepted)) encoding = 'gzip';
      }
    }
    const body = encoding ? file[encoding]! : file.body;
    res.writeHead(
      status,
      lists
        ? withLimits(lists, encoding ? lists[encoding]! : lists.plain, lists.at, limits)
        : withBody(commonList(file, pathname, rules.headers, fileHeaders).raw, encoding, body),
    );
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  }

  #sharedLists(
    file: CachedFile,
    pathname: string,
    status: 200 | 404,
    headers: Readonly<Record<string, string>>,
    fileHeaders: Readonly<Record<string, string>>,
    after: number,
  ): HeaderLists {
    let byHeaders = file.lists.get(headers);
    if (!byHeaders) file.lists.set(headers, (byHeaders = new WeakMap()));
    let byFile = byHeaders.get(fileHeaders);
    if (!byFile) byHeaders.set(fileHeaders, (byFile = new Map<number, HeaderLists>()));
    // What else the lists depend on, as one number: where the rate-limit headers go, the status, the cache policy.
    const kind = (after * 2 + (status === 200 ? 0 : 1)) * 2 + (pathname.startsWith('/_astro/') ? 1 : 0);
    let lists = byFile.get(kind);
    if (!lists) {
      const { raw: common, at } = commonList(file, pathname, headers, fileHeaders, after);
      lists = {
        plain: withBody(common, null, file.body),
        at,
        notModified: notModifiedRaw(common),
        notModifiedAt: notModifiedRaw(common.slice(0, at)).length,
        withRoom: new Map(),
      };
      if (file.gzip) lists.gzip = withBody(common, 'gzip', file.gzip);
      if (file.br) lists.br = withBody(common, 'br', file.br);
      byFile.set(kind, lists);
    }
    return lists;
  }
}

const noHeaders: Readonly<Record<string, string>> = Object.freeze({});

/** A file's headers for each way it can be sent, as flat name, value lists, and where a counted request's rate-limit headers go in them. */
interface HeaderLists {
  plain: string[];
  gzip?: string[];
  br?: string[];
  at: number;
  notModified: string[];
  notModifiedAt: number;
  /** Each of these lists with room at `at` for a counted request's rate-limit headers (withLimits). */
  withRoom: Map<string[], string[]>;
}

/**
 * `list` with `limits` put in at `at`, or `list` itself when there are none. The list with room
 * for them is made once per list and filled in place for each request (names and values, so a
 * list of another length gets a list of its own): Node reads the list while writeHead runs and
 * keeps none of it, and the request is written before any other runs.
 */
function withLimits(lists: HeaderLists, list: string[], at: number, limits: readonly string[] | null): string[] {
  if (!limits || limits.length === 0) return list;
  let out = lists.withRoom.get(list);
  if (out === undefined || out.length !== list.length + limits.length) {
    out = [...list.slice(0, at), ...limits, ...list.slice(at)];
    lists.withRoom.set(list, out);
    return out;
  }
  for (let i = 0; i < limits.length; i += 1) out[at + i] = limits[i]!;
  return out;
}

/**
 * The headers of `file` served at `pathname` with the rules' and the build's headers (the
 * build's win), but its encoding and length; `at`: where the list made from the first `after`
 * of the rules' headers ends.
 */
function commonList(
  file: CachedFile,
  pathname: string,
  headers: Readonly<Record<string, string>>,
  fileHeaders: Readonly<Record<string, string>>,
  after = 0,
): { raw: string[]; at: number } {
  let type = file.type;
  let cache: string = pathname.startsWith('/_astro/') ? cachePolicy.immutable : cachePolicy.page;
  let vary: string | undefined;
  const raw: string[] = [];
  const take = (name: string, value: string) => {
    const low = lowerCase(name);
    if (low === 'content-type') type = value;
    else if (low === 'cache-control') cache = value;
    else if (low === 'vary') vary = value;
    else if (low !== 'etag') raw.push(name, value);
  };
  // In the order of `{ ...headers, ...fileHeaders }`: a name in both keeps its first place and the build's value.
  let index = 0;
  let at = 0;
  for (const name in headers) {
    take(name, Object.hasOwn(fileHeaders, name) ? fileHeaders[name]! : headers[name]!);
    index += 1;
    if (index === after) at = raw.length;
  }
  if (index < after) at = raw.length;
  for (const name in fileHeaders) if (!Object.hasOwn(headers, name)) take(name, fileHeaders[name]!);
  raw.push('Content-Type', type, 'Cache-Control', cache, 'ETag', file.etag);
  if (file.gzip) vary = vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding';
  if (vary) raw.push('Vary', vary);
  return { raw, at };
}

/** The full list sent with `body` in `encoding`: `common` with the encoding and the length. */
function withBody(common: string[], encoding: 'gzip' | 'br' | null, body: Buffer): string[] {
  return encoding
    ? [...common, 'Content-Encoding', encoding, 'Content-Length', String(body.length)]
    : [...common, 'Content-Length', String(body.length)];
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
