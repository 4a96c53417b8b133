/**
 * Each enquiry taken once. A client that sends an enquiry again, because its first request timed
 * out or its connection dropped after the enquiry was kept, gets the first answer again and no
 * second enquiry, as the IETF httpapi draft "The Idempotency-Key HTTP Header Field" describes:
 *
 * - `Idempotency-Key` on POST /api/bookings (JSON) and on the POST to /mcp that calls
 *   `send_enquiry`: the same key with the same body gets the first answer (201, or the kept-but-
 *   not-delivered 502/503); with another body, 422; while the first is still being answered, 409.
 * - The trip pages' form carries a one-time token (`formToken`, put in by /enquiry.js and by the
 *   live pages that show the form again), sent as the key. A plain form posted without one (no
 *   JavaScript) is keyed by its own fields: the same enquiry sent twice is the same enquiry.
 *
 * Keys are kept in operational storage with the enquiry they took (EnquiryStore), so every
 * instance of the site honours them, for 24 hours. A request refused before an enquiry is kept
 * (a field to fix, the quota, storage down) uses no key: the same key may be sent again.
 */
import { createHash } from 'node:crypto';
import { formTokenField } from './enquiry.ts';
import { refusals, type BookingAnswer } from './responses.ts';
import type { KeptRequest, StoredEnquiry } from './store.ts';

export const idempotencyKeyHeader = 'Idempotency-Key';

export const maxKeyLength = 255;

/** How long a key is honoured, from the request that first used it. */
export const keyLifetimeMs = 24 * 60 * 60 * 1000;

/**
 * How long after a key was kept its first answer is taken to be on its way: the request that
 * kept it begins delivery as soon as its transaction ends. A request sent again later, when no
 * answer was noted and the enquiry is not delivered, finds the first request cut short (its
 * process stopped, or storage failed between keeping and sending) and delivers it itself:
 * delivery is idempotent (the same key to Resend, the outbox never writes a file twice), so even
 * a first request that was only slow cannot make the team receive it twice.
 */
const answerDueMs = 5_000;

/** A request's key and the fingerprint of what it asked (its fields). */
export interface RequestKey {
  key: string;
  fingerprint: string;
}

export type KeyRead = { ok: true; key: string | null } | { ok: false; message: string };

const keyRule = `The ${idempotencyKeyHeader} header must be a string of 1 to ${maxKeyLength} visible ASCII characters, for example "8e03978e-40d5-43e8-bc93-6894a57f9324" (a new UUID for each enquiry, the same one when you send that enquiry again).`;

/**
 * The key a header (or a form's token) gives: a Structured Fields string (RFC 8941, as the draft
 * defines it: `"…"`, with `\"` and `\\` escaped), or the same characters unquoted, as many
 * clients send them. Absent is no key; anything else is refused with `keyRule`.
 */
export function readIdempotencyKey(value: string | null | undefined): KeyRead {
  if (value === null || value === undefined) return { ok: true, key: null };
  const text = value.trim();
  let key = text;
  if (text.startsWith('"')) {
    const quoted = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/.exec(text);
    if (!quoted) return { ok: false, message: keyRule };
    key = quoted[1]!.replace(/\\(["\\])/g, '$1');
  } else if (!/^[\x21\x23-\x2b\x2d-\x5b\x5d-\x7e]*$/.test(text)) {
    return { ok: false, message: keyRule };
  }
  if (key.length === 0 || key.length > maxKeyLength) return { ok: false, message: keyRule };
  return { ok: true, key };
}

/** JSON with every object's members in one order, so equal fields give equal text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** What a request asked, as one digest: its fields as received, the form's token aside. */
export function fingerprintOf(fields: Record<string, unknown>): string {
  const { [formTokenField]: _token, ...asked } = fields;
  return createHash('sha256').update(canonical(asked)).digest('base64url');
}

/**
 * The request's key: the client's own (the header, or the form's token), or for a plain form
 * without a token its fields themselves. A JSON request without the header has none: each is a
 * new enquiry, as before the draft. The namespaces keep a client's key from ever naming a form's.
 */
export function requestKey(
  fields: Record<string, unknown>,
  clientKey: string | null,
  plainForm: boolean,
): RequestKey | null {
  const fingerprint = fingerprintOf(fields);
  if (clientKey !== null) return { key: `key:${clientKey}`, fingerprint };
  return plainForm ? { key: `form:${fingerprint}`, fingerprint } : null;
}

export const keyRefusals = {
  invalid: keyRule,
  reused: `This ${idempotencyKeyHeader} was already used for an enquiry with other details, so nothing was sent. To get that enquiry's answer, send exactly the same request again; to send a new enquiry, use a new key.`,
};

/** A request sent again: answered as the first was, or its enquiry left for this request to deliver. */
export type AnswerAgain = BookingAnswer | { kind: 'cut_short'; enquiry: StoredEnquiry };

/** The answer to a request whose key is already kept: the first answer again, or what became of it. */
export function answerAgain(kept: KeptRequest, fingerprint: string, now: Date, contact: string): AnswerAgain {
  const { enquiry } = kept;
  if (kept.fingerprint !== fingerprint)
    return { kind: 'error', code: 'idempotency_key_reused', message: keyRefusals.reused };
  if (kept.answer === 'received' || (!kept.answer && enquiry.deliveryState === 'delivered'))
    return { kind: 'received', enquiry };
  if (kept.answer)
    return { kind: 'error', code: kept.answer, message: refusals.notDelivered(enquiry, contact), saved: enquiry };
  if (now.getTime() - kept.createdAt.getTime() < answerDueMs) return { kind: 'in_progress', enquiry };
  return { kind: 'cut_short', enquiry };
}
