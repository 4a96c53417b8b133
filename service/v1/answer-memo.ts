/**
 * Catalogue answers remembered per request: trips and peaks change only with a deploy, so the
 * answer to one path and query string is worked out (filtered, serialised, hashed) once and
 * then served as the same bytes. Bounded, least recently used first out, so a client trying
 * endless query strings costs memory only up to the bound.
 */
import type { ApiError } from '../http/errors.ts';
import type { PreparedJson } from '../http/respond.ts';

export type MemoAnswer = { kind: 'json'; json: PreparedJson } | { kind: 'error'; error: ApiError };

export class AnswerMemo {
  readonly #answers = new Map<string, Promise<MemoAnswer>>();
  readonly #capacity: number;

  constructor(capacity = 2000) {
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#answers.size;
  }

  /** The answer for `key`, worked out by `work` the first time. */
  answer(key: string, work: () => Promise<MemoAnswer>): Promise<MemoAnswer> {
    const known = this.#answers.get(key);
    if (known) {
      // Refresh its place: Map keeps insertion order, so the oldest entry is the first one.
      this.#answers.delete(key);
      this.#answers.set(key, known);
      return known;
    }
    const pending = work();
    this.#answers.set(key, pending);
    pending.catch(() => this.#answers.delete(key));
    if (this.#answers.size > this.#capacity) {
      const oldest = this.#answers.keys().next().value;
      if (oldest !== undefined) this.#answers.delete(oldest);
    }
    return pending;
  }
}
