/**
 * Departures read from storage at most once a second per filter, however many visitors ask at
 * the same moment: concurrent requests share one read, and the rows stay valid for `ttlMs`.
 * Well inside the contract's 60-second bound on how old departures may be, and it keeps a busy
 * page from turning into one database query per visitor.
 *
 * This is also where a request's wait for storage is bounded, once: every read fails after
 * STORAGE_TIMEOUT_MS (service/config.ts) if storage has not answered, and the requests
 * sharing it fail with it. And storage that has just failed is not waited on again by everyone:
 * for a second after a failure every read fails at once, then one read at a time asks storage
 * again (the others failing at once meanwhile) until one succeeds. Without that, on a hung
 * database each new filter would start a read of its own that waits the full bound, and requests
 * queued behind those (the Node host runs a few functions at a time; the pool has a few
 * connections) would wait for them first: a bound per read, but not per request.
 *
 * Each read has an id, so whatever is worked out from its rows (a page, a JSON body) can be kept
 * for exactly as long as the rows themselves (see service/functions/departures.ts).
 */
import type { DepartureSource, StoredDeparture } from './source.ts';
import { defaultStorageTimeoutMs, type Settings } from '../config.ts';

const maxFilters = 256;

/** After a failure, how long every read fails at once before storage is asked again. */
const retryAfterFailureMs = 1000;

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
  /** When the last read to finish failed; null once one succeeds. */
  #failedAt: number | null = null;
  /** While storage is failing: the one read that is asking it again. */
  #retry: Read | null = null;

  constructor(
    source: DepartureSource,
    {
      ttlMs = 1000,
      timeoutMs = defaultStorageTimeoutMs,
      clock = Date.now,
    }: { ttlMs?: number; timeoutMs?: number; clock?: () => number } = {},
  ) {
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
    if (this.#failedAt !== null && (now - this.#failedAt < retryAfterFailureMs || this.#retry)) {
      // Storage failed a moment ago, or another read is already asking it again: not waited on.
      if (this.#retry && known === this.#retry) return known;
      const rows = Promise.reject(new Error('storage did not answer a moment ago; it is asked again in a second'));
      rows.catch(() => undefined);
      return { id: this.#nextId++, at: now, rows };
    }
    const read: Read = { id: this.#nextId++, at: now, rows: this.#bounded(this.#source.listPublished(filter)) };
    if (this.#failedAt !== null) this.#retry = read;
    this.#reads.delete(key);
    this.#reads.set(key, read);
    // Filters come from requests (an unknown trip is a filter too): keep the newest few hundred.
    if (this.#reads.size > maxFilters) this.#reads.delete(this.#reads.keys().next().value!);
    read.rows.then(
      () => {
        this.#failedAt = null;
        if (this.#retry === read) this.#retry = null;
      },
      // A failure counts from when it is known, so the requests that waited for it do not each
      // ask again; handled here too, so a failure nobody waits for is not reported as unhandled.
      () => {
        read.at = this.#failedAt = this.#clock();
        if (this.#retry === read) this.#retry = null;
      },
    );
    return read;
  }

  /** Storage that hangs rather than refusing fails every waiting request after `timeoutMs`, once. */
  #bounded(rows: Promise<StoredDeparture[]>): Promise<StoredDeparture[]> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`storage did not answer within ${this.#timeoutMs} ms`)),
        this.#timeoutMs,
      );
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

/** The reads a deployment's requests wait for: kept for DEPARTURES_FRESH_MS, bounded by STORAGE_TIMEOUT_MS. */
export function recentReads(
  source: DepartureSource,
  settings: Pick<Settings, 'DEPARTURES_FRESH_MS' | 'STORAGE_TIMEOUT_MS'>,
): RecentReads {
  return new RecentReads(source, { ttlMs: settings.DEPARTURES_FRESH_MS, timeoutMs: settings.STORAGE_TIMEOUT_MS });
}
