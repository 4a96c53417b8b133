/**
 * What the request path works out once and then reads again, kept in one of three ways, each
 * keyed by a typed value (a path, an object, a number), never by parts written into one string:
 *   - BoundedMemo: answers made asynchronously, bounded in count and bytes;
 *   - memoise: what depends on its key alone (a path, a site), bounded in count; a key of
 *     several parts is one memoise per part, nested;
 *   - KeptWith: what is worked out about one request's own objects (its web Request, its parsed
 *     address), kept with the object for as long as it lives.
 */

/**
 * Answers worked out once and then served again: catalogue answers for as long as the deploy
 * (service/v1), live answers for as long as the read they came from (service/functions/departures.ts).
 * Bounded, least recently used first out, so a client trying endless query strings costs memory
 * only up to the bound. A failed piece of work is not kept.
 */
export class BoundedMemo<T> {
  readonly #answers = new Map<string, Promise<T>>();
  readonly #sizes = new Map<string, number>();
  readonly #capacity: number;
  readonly #maxBytes: number;
  readonly #sizeOf: ((answer: T) => number) | undefined;
  #bytes = 0;

  /**
   * At most `capacity` answers; with `sizeOf`, also at most `maxBytes` of them (counted once an
   * answer is worked out), so large answers cannot hold more memory than that.
   */
  constructor(
    capacity = 2000,
    { maxBytes = Infinity, sizeOf }: { maxBytes?: number; sizeOf?: (answer: T) => number } = {},
  ) {
    this.#capacity = capacity;
    this.#maxBytes = maxBytes;
    this.#sizeOf = sizeOf;
  }

  get size(): number {
    return this.#answers.size;
  }

  /** Bytes of the answers kept, as `sizeOf` counts them. */
  get bytes(): number {
    return this.#bytes;
  }

  /** True when an answer for `key` is kept or being worked out. */
  has(key: string): boolean {
    return this.#answers.has(key);
  }

  /** The answer for `key`, worked out by `work` the first time. */
  answer(key: string, work: () => Promise<T>): Promise<T> {
    const known = this.#answers.get(key);
    if (known) {
      // Refresh its place: Map keeps insertion order, so the oldest entry is the first one.
      this.#answers.delete(key);
      this.#answers.set(key, known);
      return known;
    }
    const pending = work();
    this.#answers.set(key, pending);
    pending.then(
      (answer) => {
        if (!this.#sizeOf || this.#answers.get(key) !== pending) return;
        const size = this.#sizeOf(answer);
        this.#sizes.set(key, size);
        this.#bytes += size;
        while (this.#bytes > this.#maxBytes && this.#answers.size > 1) this.#drop(this.#answers.keys().next().value!);
      },
      () => {
        if (this.#answers.get(key) === pending) this.#drop(key);
      },
    );
    if (this.#answers.size > this.#capacity) this.#drop(this.#answers.keys().next().value!);
    return pending;
  }

  #drop(key: string): void {
    this.#answers.delete(key);
    const size = this.#sizes.get(key);
    if (size !== undefined) {
      this.#sizes.delete(key);
      this.#bytes -= size;
    }
  }
}

/**
 * The synchronous sibling of BoundedMemo, for the host's hot path, where a promise per lookup
 * would cost more than the lookup itself: a function's answers kept per key, for lookups that
 * depend on their key alone (a request path, while the files and routes stay fixed). At most
 * `limit` are kept, all dropped when full, so a flood of new keys costs a lookup each and never
 * memory.
 */
export function memoise<K, V>(compute: (key: K) => V, limit = 4096): (key: K) => V {
  const kept = new Map<K, V>();
  return (key) => {
    const known = kept.get(key);
    if (known !== undefined || kept.has(key)) return known as V;
    const value = compute(key);
    if (kept.size >= limit) kept.clear();
    kept.set(key, value);
    return value;
  };
}

/**
 * What is worked out once about one object of a request (its web Request, its parsed address)
 * and kept with it for as long as the object lives, however many steps of the request ask: the
 * key is the object itself. `set` records what a step already knows (the host's parse of an
 * address). A computed value is never undefined.
 */
export class KeptWith<K extends object, V> {
  readonly #kept = new WeakMap<K, V>();
  readonly #compute: (key: K) => V;

  constructor(compute: (key: K) => V) {
    this.#compute = compute;
  }

  get(key: K): V {
    let value = this.#kept.get(key);
    if (value === undefined) {
      value = this.#compute(key);
      this.#kept.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.#kept.set(key, value);
  }
}
