/**
 * What Vercel's CDN does for the functions' answers, done by the Node host: a GET answer marked
 * `public` with an `s-maxage` is kept for that many seconds and served again without calling the
 * function (the request rules still run first, as Routing Middleware runs before the cache).
 * Catalogue answers are kept for the hour they allow; live departures for the second they allow.
 *
 * Keyed by method-free URL and by the request headers the answer's `Vary` names. Bounded in
 * entries and bytes, oldest first out; compressed forms are made once, on first demand.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export interface KeptResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Made on first demand. */
  br?: Buffer;
  gzip?: Buffer;
  /** Its headers but length and Vary as a flat name, value list, made on first use. */
  raw?: string[];
  expires: number;
}

interface Variants {
  /** Request header names the answers of this URL vary on (from their `Vary`). */
  vary: string[];
  entries: Map<string, KeptResponse>;
}

const cacheable = /(^|,)\s*public\s*(,|$)/i;

/** Seconds a shared cache may keep an answer, or 0. */
export function sharedMaxAge(cacheControl: string | null): number {
  if (!cacheControl || !cacheable.test(cacheControl) || /no-store|private|no-cache/i.test(cacheControl)) return 0;
  const match = /s-maxage=(\d+)/i.exec(cacheControl);
  return match ? Number(match[1]) : 0;
}

export class EdgeCache {
  readonly #urls = new Map<string, Variants>();
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  readonly #clock: () => number;
  #entries = 0;
  #bytes = 0;

  constructor({ maxEntries = 2000, maxBytes = 64 * 1024 * 1024, clock = Date.now }: { maxEntries?: number; maxBytes?: number; clock?: () => number } = {}) {
    this.#maxEntries = maxEntries;
    this.#maxBytes = maxBytes;
    this.#clock = clock;
  }

  #variantKey(vary: string[], header: (name: string) => string | null): string {
    return vary.map((name) => header(name) ?? '').join('\n');
  }

  /** The kept answer for this URL and these request headers, when one is still fresh. */
  get(url: string, header: (name: string) => string | null): KeptResponse | null {
    const variants = this.#urls.get(url);
    if (!variants) return null;
    const key = this.#variantKey(variants.vary, header);
    const kept = variants.entries.get(key);
    if (!kept) return null;
    if (kept.expires <= this.#clock()) {
      this.#remove(variants, key, kept);
      if (variants.entries.size === 0) this.#urls.delete(url);
      return null;
    }
    // Most recently used last, so the first URL in the map is the one to drop.
    this.#urls.delete(url);
    this.#urls.set(url, variants);
    return kept;
  }

  /** Keeps `response` (already read into `body`) when its headers allow a shared cache to. */
  put(url: string, header: (name: string) => string | null, status: number, headers: Record<string, string>, body: Buffer): void {
    const seconds = sharedMaxAge(headers['cache-control'] ?? null);
    if (seconds <= 0 || status !== 200 || 'set-cookie' in headers) return;
    const vary = (headers.vary ?? '')
      .split(',')
      .map((v) => v.trim().toLowerCase())
      .filter(Boolean);
    if (vary.includes('*')) return;
    let variants = this.#urls.get(url);
    if (!variants || variants.vary.join() !== vary.join()) {
      if (variants) for (const [key, kept] of variants.entries) this.#remove(variants, key, kept);
      variants = { vary, entries: new Map() };
    }
    this.#urls.delete(url);
    this.#urls.set(url, variants);
    const key = this.#variantKey(vary, header);
    const previous = variants.entries.get(key);
    if (previous) this.#remove(variants, key, previous);
    variants.entries.set(key, { status, headers, body, expires: this.#clock() + seconds * 1000 });
    this.#entries += 1;
    this.#bytes += body.length;
    while ((this.#entries > this.#maxEntries || this.#bytes > this.#maxBytes) && this.#urls.size > 0) {
      const [oldestUrl, oldest] = this.#urls.entries().next().value!;
      for (const [k, kept] of oldest.entries) this.#remove(oldest, k, kept);
      this.#urls.delete(oldestUrl);
    }
  }

  #remove(variants: Variants, key: string, kept: KeptResponse): void {
    variants.entries.delete(key);
    this.#entries -= 1;
    this.#bytes -= kept.body.length;
  }
}

const compressible = /^(text\/|application\/(json|xml|ld\+json|[a-z.-]+\+json)|image\/svg)/;

/** The body to send for this Accept-Encoding, compressing (once) when it is worth it. */
export function encodedBody(kept: KeptResponse, acceptEncoding: string): { body: Buffer; encoding?: string } {
  if (kept.body.length < 1024 || !compressible.test(kept.headers['content-type'] ?? '') || kept.headers['content-encoding']) return { body: kept.body };
  if (/\bbr\b/.test(acceptEncoding)) {
    kept.br ??= brotliCompressSync(kept.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } });
    return { body: kept.br, encoding: 'br' };
  }
  if (/\bgzip\b/.test(acceptEncoding)) {
    kept.gzip ??= gzipSync(kept.body, { level: 9 });
    return { body: kept.gzip, encoding: 'gzip' };
  }
  return { body: kept.body };
}
