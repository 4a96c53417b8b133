/**
 * enquiryStore: booking enquiries in operational storage with their delivery state. An
 * enquiry is written here before any delivery is attempted, so mail being down never loses
 * one; `pending` means a delivery is under way (or was cut short), `failed` that the last
 * attempt did not get through, `delivered` that the team has it. Apart from delivery, the team
 * marks an enquiry handled once they have answered it, with a note (`npm run enquiries`).
 */
import { randomBytes } from 'node:crypto';
import { migrateOnce } from '../storage/migrations/index.ts';
import type { Sql } from '../storage/sql.ts';
import type { EnquiryInput } from './enquiry.ts';

const deliveryStates = ['pending', 'delivered', 'failed'] as const;
type DeliveryState = (typeof deliveryStates)[number];

/** The trip as the visitor saw it, kept with the enquiry so a later delivery sends the same email. */
interface EnquiryTrip {
  name: string;
  url: string;
}

/** What the visitor was shown when the enquiry was taken, kept so a later delivery and the thank-you page say the same. */
export interface EnquiryContext {
  trip: EnquiryTrip;
  /** When a guide will call, as promised on the site at the time (null for enquiries older than the promise). */
  callbackPromise: string | null;
}

export interface StoredEnquiry extends EnquiryInput, EnquiryContext {
  id: string;
  createdAt: Date;
  deliveryState: DeliveryState;
  attempts: number;
  lastAttemptAt: Date | null;
  lastError: string | null;
  deliveredAt: Date | null;
  /** The mail provider's message id, or the outbox file. */
  deliveryRef: string | null;
  idempotencyKey: string;
  /** When the team marked it handled; null while it is open. */
  handledAt: Date | null;
  /** What the team noted when they handled it. */
  handledNote: string | null;
}

/** Which enquiries a list holds: each filter given narrows it. */
export interface EnquiryFilter {
  tripSlug?: string | undefined;
  /** Received at or after this moment. */
  since?: Date | undefined;
  /** `undelivered` is pending or failed; `open` not handled yet. */
  state?: EnquiryState | undefined;
}

/** The states a list can be narrowed to: a delivery state, either of the team's, or not delivered yet. */
export const enquiryStates = [...deliveryStates, 'undelivered', 'open', 'handled'] as const;
export type EnquiryState = (typeof enquiryStates)[number];

/** The condition on a row for each state. */
const stateCondition: Record<EnquiryState, string> = {
  pending: `delivery_state = 'pending'`,
  delivered: `delivery_state = 'delivered'`,
  failed: `delivery_state = 'failed'`,
  undelivered: `delivery_state <> 'delivered'`,
  open: 'handled_at IS NULL',
  handled: 'handled_at IS NOT NULL',
};

interface Row {
  id: string;
  trip_slug: string;
  trip_name: string;
  trip_url: string;
  name: string;
  phone: string;
  email: string | null;
  group_size: number;
  preferred_departure: string | null;
  message: string | null;
  callback_promise: string | null;
  created_at: Date | string;
  delivery_state: DeliveryState;
  attempts: number;
  last_attempt_at: Date | string | null;
  last_error: string | null;
  delivered_at: Date | string | null;
  delivery_ref: string | null;
  idempotency_key: string;
  handled_at: Date | string | null;
  handled_note: string | null;
}

const asDate = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

function fromRow(row: Row): StoredEnquiry {
  return {
    id: row.id,
    tripSlug: row.trip_slug,
    trip: { name: row.trip_name, url: row.trip_url },
    name: row.name,
    phone: row.phone,
    email: row.email,
    groupSize: row.group_size,
    preferredDeparture: row.preferred_departure,
    message: row.message,
    callbackPromise: row.callback_promise,
    createdAt: new Date(row.created_at),
    deliveryState: row.delivery_state,
    attempts: row.attempts,
    lastAttemptAt: asDate(row.last_attempt_at),
    lastError: row.last_error,
    deliveredAt: asDate(row.delivered_at),
    deliveryRef: row.delivery_ref,
    idempotencyKey: row.idempotency_key,
    handledAt: asDate(row.handled_at),
    handledNote: row.handled_note,
  };
}

/**
 * Short, unguessable and sortable by day: `enq-20260801-k3v9x2m7qa`. The id is also the public
 * reference (it is in the thank-you page's address), so the ten characters are drawn from a
 * cryptographic source: 50 bits a day, far too many to try one by one.
 */
export const enquiryIdPattern = /^enq-\d{8}-[a-km-np-z2-9]{10}$/;

export function newEnquiryId(now: Date): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';
  const random = Array.from(randomBytes(10), (b) => alphabet[b % alphabet.length]).join('');
  return `enq-${now.toISOString().slice(0, 10).replaceAll('-', '')}-${random}`;
}

/** The first answer a request that took an enquiry was given: the enquiry was kept, then delivered or not. */
export type FirstAnswer = 'received' | 'delivery_failed' | 'delivery_unavailable';

/** A request kept under its idempotency key (service/bookings/idempotency.ts), with the enquiry it took. */
export interface KeptRequest {
  fingerprint: string;
  /** Null while its delivery is being tried. */
  answer: FirstAnswer | null;
  createdAt: Date;
  enquiry: StoredEnquiry;
}

/** The key a request is kept under, and what it asked. */
export interface KeyedRequest {
  key: string;
  fingerprint: string;
  /** Keys first used before this are expired: forgotten, and free to take a new enquiry. */
  keptSince: Date;
}

type Query = Pick<Sql, 'query'>;

/** The key was taken (by a request sent again, or at the same moment): the transaction is rolled back. */
class KeyTaken extends Error {}

async function insert(sql: Query, input: EnquiryInput, context: EnquiryContext, now: Date): Promise<StoredEnquiry> {
  const id = newEnquiryId(now);
  const { trip, callbackPromise } = context;
  const { rows } = await sql.query<Row>(
    `INSERT INTO enquiries (id, trip_slug, trip_name, trip_url, name, phone, email, group_size, preferred_departure, message, callback_promise, created_at, idempotency_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING *`,
    [
      id,
      input.tripSlug,
      trip.name,
      trip.url,
      input.name,
      input.phone,
      input.email,
      input.groupSize,
      input.preferredDeparture,
      input.message,
      callbackPromise,
      now.toISOString(),
      `enquiry/${id}`,
    ],
  );
  return fromRow(rows[0]!);
}

export class EnquiryStore {
  readonly sql: Sql;
  /** Migrates once; a failure is forgotten so the next call tries again. */
  readonly ready: () => Promise<void>;

  constructor(sql: Sql) {
    this.sql = sql;
    this.ready = migrateOnce(sql);
  }

  /** Keeps a new enquiry, state `pending`, with its own idempotency key for delivery. */
  async add(input: EnquiryInput, context: EnquiryContext, now: Date): Promise<StoredEnquiry> {
    await this.ready();
    return insert(this.sql, input, context, now);
  }

  /**
   * Keeps a new enquiry for `request`, unless its key is already kept: then nothing new is kept
   * and the request kept under it comes back. One transaction holds both rows, and the key's
   * primary key decides a race: a second request with the same key, at the same moment on any
   * instance, waits for the first's transaction, then finds its key.
   */
  async addOnce(
    input: EnquiryInput,
    context: EnquiryContext,
    now: Date,
    request: KeyedRequest,
  ): Promise<{ taken: StoredEnquiry } | { kept: KeptRequest }> {
    await this.ready();
    try {
      const taken = await this.sql.transaction(async (tx) => {
        await tx.query('DELETE FROM enquiry_requests WHERE created_at < $1', [request.keptSince.toISOString()]);
        const enquiry = await insert(tx, input, context, now);
        const { rows } = await tx.query(
          `INSERT INTO enquiry_requests (key, fingerprint, enquiry_id, created_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (key) DO NOTHING RETURNING key`,
          [request.key, request.fingerprint, enquiry.id, now.toISOString()],
        );
        if (rows.length === 0) throw new KeyTaken();
        return enquiry;
      });
      return { taken };
    } catch (error) {
      if (!(error instanceof KeyTaken)) throw error;
    }
    const kept = await this.keptRequest(request);
    if (!kept) throw new Error(`the request key of an enquiry was taken and then not found`);
    return { kept };
  }

  /** The request kept under `request.key` and not expired, with its enquiry, or null. */
  async keptRequest(request: Pick<KeyedRequest, 'key' | 'keptSince'>): Promise<KeptRequest | null> {
    await this.ready();
    const { rows } = await this.sql.query<
      Row & { request_fingerprint: string; request_answer: FirstAnswer | null; request_created_at: Date | string }
    >(
      `SELECT e.*, r.fingerprint AS request_fingerprint, r.answer AS request_answer, r.created_at AS request_created_at
       FROM enquiry_requests r JOIN enquiries e ON e.id = r.enquiry_id
       WHERE r.key = $1 AND r.created_at >= $2`,
      [request.key, request.keptSince.toISOString()],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      fingerprint: row.request_fingerprint,
      answer: row.request_answer,
      createdAt: new Date(row.request_created_at),
      enquiry: fromRow(row),
    };
  }

  /** Notes the first answer given to the request kept under `key`, for a request sent again. */
  async recordAnswer(key: string, answer: FirstAnswer): Promise<void> {
    await this.sql.query('UPDATE enquiry_requests SET answer = $2 WHERE key = $1 AND answer IS NULL', [key, answer]);
  }

  async get(id: string): Promise<StoredEnquiry | null> {
    await this.ready();
    const { rows } = await this.sql.query<Row>('SELECT * FROM enquiries WHERE id = $1', [id]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** Newest first, narrowed by each filter given. */
  async list(filter: EnquiryFilter = {}): Promise<StoredEnquiry[]> {
    await this.ready();
    const { rows } = await this.sql.query<Row>(
      `SELECT * FROM enquiries
       WHERE ($1::text IS NULL OR trip_slug = $1) AND ($2::timestamptz IS NULL OR created_at >= $2)
         ${filter.state ? `AND ${stateCondition[filter.state]}` : ''}
       ORDER BY created_at DESC, id`,
      [filter.tripSlug ?? null, filter.since?.toISOString() ?? null],
    );
    return rows.map(fromRow);
  }

  /**
   * Marks an enquiry handled, with the team's note. Handled again, it keeps the moment it was
   * first handled and takes the new note, if one is given. Null when no enquiry has the id.
   */
  async markHandled(id: string, now: Date, note: string | null): Promise<StoredEnquiry | null> {
    await this.ready();
    const { rows } = await this.sql.query<Row>(
      `UPDATE enquiries SET handled_at = COALESCE(handled_at, $2), handled_note = COALESCE($3, handled_note)
       WHERE id = $1 RETURNING *`,
      [id, now.toISOString(), note],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** Opens a handled enquiry again; its note is kept. Null when no enquiry has the id. */
  async reopen(id: string): Promise<StoredEnquiry | null> {
    await this.ready();
    const { rows } = await this.sql.query<Row>('UPDATE enquiries SET handled_at = NULL WHERE id = $1 RETURNING *', [
      id,
    ]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** Counts an attempt; null when the enquiry is unknown or already delivered. */
  async beginAttempt(id: string, now: Date): Promise<StoredEnquiry | null> {
    const { rows } = await this.sql.query<Row>(
      `UPDATE enquiries SET attempts = attempts + 1, last_attempt_at = $2, delivery_state = 'pending'
       WHERE id = $1 AND delivery_state <> 'delivered' RETURNING *`,
      [id, now.toISOString()],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async markDelivered(id: string, now: Date, deliveryRef: string): Promise<void> {
    await this.sql.query(
      `UPDATE enquiries SET delivery_state = 'delivered', delivered_at = $2, delivery_ref = $3, last_error = NULL WHERE id = $1`,
      [id, now.toISOString(), deliveryRef],
    );
  }

  async markFailed(id: string, error: string): Promise<void> {
    await this.sql.query(
      `UPDATE enquiries SET delivery_state = 'failed', last_error = $2 WHERE id = $1 AND delivery_state <> 'delivered'`,
      [id, error.slice(0, 1000)],
    );
  }

  close(): Promise<void> {
    return this.sql.close();
  }
}
