/**
 * Enquiries during the soak's faults (scripts/soak.ts): sent one at a time, each from a loopback
 * address of its own (so the enquiry quota never refuses them), every answer kept; afterwards
 * each enquiry a server accepted (it answered with a reference) is looked up in storage: stored,
 * and delivered. No accepted enquiry may be missing.
 */
import { request } from 'node:http';
import { EnquiryStore } from '../../service/bookings/store.ts';
import type { Sql } from '../../service/storage/sql.ts';

export interface EnquiryAnswer {
  at: number;
  status: number | 'error' | 'timeout';
  /** The message sent, unique to this enquiry: how it is found in storage with or without a reference. */
  message: string;
  /** The reference, when the server accepted it (201, or saved but not delivered yet). */
  id?: string;
}

export interface Accounting {
  sent: number;
  /** Answered with a reference: the visitor was told it is received, or saved. */
  accepted: number;
  /** Of those, in storage. */
  stored: number;
  /** Of those, delivered to the team. */
  delivered: number;
  /** Not accepted (an error or no answer), yet in storage: sent again by a visitor, a duplicate, never a loss. */
  storedUnanswered: number;
}

/** POSTs one JSON body to `path` from `address`, with `headers` (a Host or Origin of a test's choosing). */
export function post(
  origin: string,
  path: string,
  address: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: EnquiryAnswer['status']; text: string }> {
  return new Promise((resolve) => {
    const req = request(
      `${origin}${path}`,
      {
        method: 'POST',
        localAddress: address,
        timeout: 20_000,
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', () => resolve({ status: 'error', text }));
      },
    );
    req.on('timeout', () => {
      req.destroy();
      resolve({ status: 'timeout', text: '' });
    });
    req.on('error', () => resolve({ status: 'error', text: '' }));
    req.end(body);
  });
}

let sent = 0;

/** One enquiry for `trip` from the next address of the 127.<block>.x.y range: each address sends a handful an hour at most. */
export async function sendEnquiry(
  origin: string,
  block: number,
  note: string,
  trip = 'hampta-pass-trek',
): Promise<EnquiryAnswer> {
  sent += 1;
  const address = `127.${block}.${Math.floor(sent / 250) % 250}.${1 + (sent % 250)}`;
  const at = Date.now();
  const message = `${note} #${sent}`;
  const body = JSON.stringify({
    tripSlug: trip,
    name: 'Soak Enquirer',
    phone: '+91 98765 43210',
    groupSize: 2,
    message,
  });
  const { status, text } = await post(origin, '/api/bookings', address, body);
  let id: string | undefined;
  try {
    id = (JSON.parse(text) as { enquiry?: { id?: string } }).enquiry?.id;
  } catch {
    // not JSON: a connection that died, no reference
  }
  return { at, status, message, ...(id ? { id } : {}) };
}

/** Enquiries (for `trip`) every `gapMs` until `done()`, into `answers`. */
export async function enquiryClient(
  origin: () => string,
  block: number,
  note: string,
  gapMs: number,
  done: () => boolean,
  answers: EnquiryAnswer[],
  trip?: string,
): Promise<void> {
  while (!done()) {
    answers.push(await sendEnquiry(origin(), block, note, trip));
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
}

/** What storage holds of `answers`. */
export async function account(sql: Sql, answers: readonly EnquiryAnswer[]): Promise<Accounting> {
  const kept = await new EnquiryStore(sql).list();
  const byId = new Map(kept.map((e) => [e.id, e]));
  const messages = new Set(kept.map((e) => e.message));
  const accepted = answers.flatMap((a) => (a.id ? [a.id] : []));
  return {
    sent: answers.length,
    accepted: accepted.length,
    stored: accepted.filter((id) => byId.has(id)).length,
    delivered: accepted.filter((id) => byId.get(id)?.deliveryState === 'delivered').length,
    storedUnanswered: answers.filter((a) => !a.id && messages.has(a.message)).length,
  };
}
