/**
 * What Vercel's CDN does for the functions' answers, done by the Node host: a GET answer marked
 * `public` with an `s-maxage` is kept for that many seconds and served again without calling the
 * function (the request rules still run first, as Routing Middleware runs before the cache).
 * Catalogue answers are kept for the hour they allow; live departures for the second they allow.
 * An answer served from here says how long it was kept (Age), as a shared cache must.
 *
 * Keyed by the URL the host gives (for live pages, the path and its declared query: see
 * service/functions/live-queries.ts) and by the request headers the answer's `Vary` names.
 * Bounded in entries and in bytes, compressed forms included, oldest first out; a compressed
 * form is made once, on first demand, off the event loop (compression.ts).
 */
import { chosenEncoding, compress, worthCompressing, type Encoding } from './compression.ts';

export interface KeptResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Made on first demand. */
  br?: Buffer | Promise<Buffer>;
  gzip?: Buffer | Promise<Buffer>;
  /** Its headers but length and Vary as a flat name, value list, made on first use. */
  raw?: string[];
  /** The rules' headers it is sent with, per shared (frozen) set of them, as flat lists (web-response.ts). */
  ruleLists?: WeakMap<object, KeptRuleList>;
  /** Whether it sets none of the rate-limit headers of a list of this length itself (web-response.ts). */
  setsNoLimit?: { length: number; none: boolean };
  expires: number;
  /** When it was kept (the cache's clock), for the Age it is served with. */
  storedAt?: number;
  /** Bytes it holds in the cache: its body and the compressed forms made so far. */
  bytes?: number;
  /** Dropped from the cache: a compressed form made afterwards is not counted. */
  dropped?: boolean;
}

/**
 * The rules' headers a kept answer does not set itself, as a flat list, and where in it the
 * rate-limit headers go (`at`); for a shared set of them, the whole lists it is sent with, one
 * per way of sending, with the places of the values that change per request (web-response.ts).
 */
export interface KeptRuleList {
  list: string[];
  at: number;
  sent?: Map<number, { raw: string[]; ageAt: number; limitsAt: number }>;
}

/** The request headers an answer may vary on, as a web Headers object or a host's view reads them. */
export interface RequestHeaders {
  get(name: string): string | null;
}

interface Variants {
  /** Request header names the answers of this URL vary on (from their `Vary`). */
  vary: string[];
  entries: Map<string, KeptResponse>;
}

const cacheable = /(^|,)\s*public\s*(,|$)/i;

/** Seconds a shared cache may keep an answer, or 0. */
function sharedMaxAge(cacheControl: string | null): number {
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
  #sweptAt = 0;
  /** Calls under way, by URL (at most one per URL: a miss waits for the call under way). */
  readonly #filling = new Map<string, Promise<unknown>>();
  /** The URL used last (last in #urls while it is kept). */
  #newest: string | undefined;

  constructor({
    maxEntries = 2000,
    maxBytes = 48 * 1024 * 1024,
    clock = Date.now,
  }: { maxEntries?: number; maxBytes?: number; clock?: () => number } = {}) {
    this.#maxEntries = maxEntries;
    this.#maxBytes = maxBytes;
    this.#clock = clock;
  }

  #variantKey(vary: string[], headers: RequestHeaders): string {
    // Most answers vary on one header (Accept) or none: no array made for them.
    if (vary.length === 0) return '';
    if (vary.length === 1) return headers.get(vary[0]!) ?? '';
    return vary.map((name) => headers.get(name) ?? '').join('\n');
  }

  /** A call under way for this URL's answer (fill), for a miss to wait on before it looks again. */
  filling(url: string): Promise<unknown> | undefined {
    return this.#filling.get(url);
  }

  /** Notes `work` as the call making this URL's answer until it settles; returns it. */
  fill<T>(url: string, work: Promise<T>): Promise<T> {
    this.#filling.set(url, work);
    const settled = () => {
      if (this.#filling.get(url) === work) this.#filling.delete(url);
    };
    work.then(settled, settled);
    return work;
  }

  /** The kept answer for this URL and these request headers, when one is still fresh. */
  get(url: string, headers: RequestHeaders): KeptResponse | null {
    const variants = this.#urls.get(url);
    if (!variants) return null;
    const key = this.#variantKey(variants.vary, headers);
    const kept = variants.entries.get(key);
    if (!kept) return null;
    if (kept.expires <= this.#clock()) {
      this.#remove(variants, key, kept);
      if (variants.entries.size === 0) this.#urls.delete(url);
      return null;
    }
    // Most recently used last, so the first URL in the map is the one to drop (already last when it was the last one used).
    if (this.#newest !== url) {
      this.#urls.delete(url);
      this.#urls.set(url, variants);
      this.#newest = url;
    }
    return kept;
  }

  /**
   * Keeps an answer (already read into `body`) when its headers allow a shared cache to. Returns
   * what to send either way: the kept entry, or one of its own that the cache does not count.
   */
  put(
    url: string,
    request: RequestHeaders,
    status: number,
    headers: Record<string, string>,
    body: Buffer,
  ): KeptResponse {
    const seconds = sharedMaxAge(headers['cache-control'] ?? null);
    if (seconds <= 0 || status !== 200 || 'set-cookie' in headers)
      return { status, headers, body, expires: 0, dropped: true };
    const vary = (headers.vary ?? '')
      .split(',')
      .map((v) => v.trim().toLowerCase())
      .filter(Boolean);
    if (vary.includes('*')) return { status, headers, body, expires: 0, dropped: true };
    let variants = this.#urls.get(url);
    if (!variants || variants.vary.join() !== vary.join()) {
      if (variants) for (const [key, kept] of variants.entries) this.#remove(variants, key, kept);
      variants = { vary, entries: new Map() };
    }
    this.#urls.delete(url);
    this.#urls.set(url, variants);
    this.#newest = url;
    const key = this.#variantKey(vary, request);
    const previous = variants.entries.get(key);
    if (previous) this.#remove(variants, key, previous);
    const now = this.#clock();
    const kept: KeptResponse = { status, headers, body, expires: now + seconds * 1000, storedAt: now, bytes: 0 };
    variants.entries.set(key, kept);
    this.#entries += 1;
    this.#count(kept, body.length);
    return kept;
  }

  /**
   * Adds `bytes` to what `kept` holds, drops expired answers (at most once a second: live answers
   * expire within a second, so a flood of them does not sit in memory until pushed out), then the
   * least recently used URLs while the cache is over its bounds.
   */
  #count(kept: KeptResponse, bytes: number): void {
    kept.bytes = (kept.bytes ?? 0) + bytes;
    this.#bytes += bytes;
    const now = this.#clock();
    if (now - this.#sweptAt >= 1000) {
      this.#sweptAt = now;
      for (const [url, variants] of this.#urls) {
        for (const [k, entry] of variants.entries) if (entry.expires <= now) this.#remove(variants, k, entry);
        if (variants.entries.size === 0) this.#urls.delete(url);
      }
    }
    while ((this.#entries > this.#maxEntries || this.#bytes > this.#maxBytes) && this.#urls.size > 0) {
      const [oldestUrl, oldest] = this.#urls.entries().next().value!;
      for (const [k, dropped] of oldest.entries) this.#remove(oldest, k, dropped);
      this.#urls.delete(oldestUrl);
    }
  }

  #remove(variants: Variants, key: string, kept: KeptResponse): void {
    variants.entries.delete(key);
    kept.dropped = true;
    this.#entries -= 1;
    this.#bytes -= kept.bytes ?? 0;
  }

  /**
   * The Age a kept answer is served with (RFC 9111, section 5.1): whole seconds since it was
   * kept, rounded up, so a browser's own cache counts the time spent here against the answer's
   * lifetime (departures may be 60 s old at most in all: service/http/cache-policy.ts).
   */
  ageOf(kept: KeptResponse): number {
    return kept.storedAt === undefined ? 0 : Math.ceil(Math.max(0, this.#clock() - kept.storedAt) / 1000);
  }

  /** Bytes held, compressed forms included. */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * The body to send for this Accept-Encoding: as kept, or compressed when the client accepts
   * it and it is worth it. A compressed form is made once (concurrent requests share it) and
   * counted against the budget; until it is made the answer is a promise.
   */
  encodedBody(kept: KeptResponse, acceptEncoding: string): EncodedBody | Promise<EncodedBody> {
    if (kept.headers['content-encoding'] || !worthCompressing(kept.headers['content-type'] ?? '', kept.body.length))
      return { body: kept.body };
    const encoding = chosenEncoding(acceptEncoding);
    if (!encoding) return { body: kept.body };
    const made = kept[encoding];
    if (made instanceof Promise) return made.then((body) => ({ body, encoding }));
    if (made) return { body: made, encoding };
    return this.#compressed(kept, encoding).then((body) => ({ body, encoding }));
  }

  #compressed(kept: KeptResponse, encoding: Encoding): Promise<Buffer> {
    const pending = compress(kept.body, encoding);
    kept[encoding] = pending;
    return pending.then(
      (body) => {
        kept[encoding] = body;
        if (!kept.dropped) this.#count(kept, body.length);
        return body;
      },
      (error: unknown) => {
        delete kept[encoding];
        throw error;
      },
    );
  }
}

export interface EncodedBody {
  body: Buffer;
  encoding?: Encoding;
}
