/**
 * Departures read from storage at most once a second per filter, however many visitors ask at
 * the same moment: concurrent requests share one read, and the rows stay valid for `ttlMs`.
 * Well inside the contract's 60-second bound on how old departures may be, and it keeps a busy
 * page from turning into one database query per visitor. A failed read is kept for the same
 * second, so storage that is down is asked once a second, not once per visitor.
 *
 * Each read has an id, so whatever is worked out from its rows (a page, a JSON body) can be kept
 * for exactly as long as the rows themselves (see service/functions/departures.ts).
 */
import type { DepartureSource, StoredDeparture } from './source.ts';

const maxFilters = 256;

interface Read {
  id: number;
  at: number;
  rows: Promise<StoredDeparture[]>;
}

export class RecentReads implements DepartureSource {
  readonly #source: DepartureSource;
  readonly #ttlMs: number;
  readonly #timeoutMs: number;
  readonly #clock: () => number;
  readonly #reads = new Map<string, Read>();
  #nextId = 1;

  constructor(source: DepartureSource, { ttlMs = 1000, timeoutMs = 3000, clock = Date.now }: { ttlMs?: number; timeoutMs?: number; clock?: () => number } = {}) {
    this.#source = source;
    this.#ttlMs = ttlMs;
    this.#timeoutMs = timeoutMs;
    this.#clock = clock;
  }

  ready(): Promise<unknown> {
    return this.#source.ready?.() ?? Promise.resolve();
  }

  #current(filter: { tripSlug?: string | undefined } = {}): Read {
    const key = filter.tripSlug ?? '';
    const now = this.#clock();
    const known = this.#reads.get(key);
    if (known && now - known.at < this.#ttlMs) return known;
    const read: Read = { id: this.#nextId++, at: now, rows: this.#bounded(this.#source.listPublished(filter)) };
    this.#reads.delete(key);
    this.#reads.set(key, read);
    // Filters come from requests (an unknown trip is a filter too): keep the newest few hundred.
    if (this.#reads.size > maxFilters) this.#reads.delete(this.#reads.keys().next().value!);
    // A failure counts from when it is known, so the requests that waited for it do not each ask
    // again; handled here too, so a failure nobody waits for is not reported as unhandled.
    read.rows.catch(() => {
      read.at = this.#clock();
    });
    return read;
  }

  /** Storage that hangs rather than refusing fails every waiting request after `timeoutMs`, once. */
  #bounded(rows: Promise<StoredDeparture[]>): Promise<StoredDeparture[]> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`storage did not answer within ${this.#timeoutMs} ms`)), this.#timeoutMs);
    });
    return Promise.race([rows, timeout]).finally(() => clearTimeout(timer));
  }

  listPublished(filter?: { tripSlug?: string | undefined }): Promise<StoredDeparture[]> {
    return this.#current(filter).rows;
  }

  /** The rows for `filter` and the id of the read they came from. */
  async read(filter?: { tripSlug?: string | undefined }): Promise<{ id: number; rows: StoredDeparture[] }> {
    const read = this.#current(filter);
    return { id: read.id, rows: await read.rows };
  }
}
