/**
 * enquiryStore: booking enquiries in operational storage with their delivery state. An
 * enquiry is written here before any delivery is attempted, so mail being down never loses
 * one; `pending` means a delivery is under way (or was cut short), `failed` that the last
 * attempt did not get through, `delivered` that the team has it.
 */
import { randomBytes } from 'node:crypto';
import { migrate } from '../storage/migrations/index.ts';
import type { Sql } from '../storage/sql.ts';
import type { EnquiryInput } from './enquiry.ts';

export const deliveryStates = ['pending', 'delivered', 'failed'] as const;
export type DeliveryState = (typeof deliveryStates)[number];

/** The trip as the visitor saw it, kept with the enquiry so a later delivery sends the same email. */
export interface EnquiryTrip {
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
}

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

export class EnquiryStore {
  readonly sql: Sql;
  #ready: Promise<void> | undefined;

  constructor(sql: Sql) {
    this.sql = sql;
  }

  /** Migrates once; a failure is forgotten so the next call tries again. */
  ready(): Promise<void> {
    this.#ready ??= migrate(this.sql).then(
      () => undefined,
      (error: unknown) => {
        this.#ready = undefined;
        throw error;
      },
    );
    return this.#ready;
  }

  /** Keeps a new enquiry, state `pending`, with its own idempotency key for delivery. */
  async add(input: EnquiryInput, context: EnquiryContext, now: Date): Promise<StoredEnquiry> {
    await this.ready();
    const id = newEnquiryId(now);
    const { trip, callbackPromise } = context;
    const { rows } = await this.sql.query<Row>(
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

  async get(id: string): Promise<StoredEnquiry | null> {
    await this.ready();
    const { rows } = await this.sql.query<Row>('SELECT * FROM enquiries WHERE id = $1', [id]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** Newest first; `undelivered` keeps only pending and failed ones. */
  async list(filter: { undelivered?: boolean } = {}): Promise<StoredEnquiry[]> {
    await this.ready();
    const { rows } = await this.sql.query<Row>(
      `SELECT * FROM enquiries WHERE NOT $1::boolean OR delivery_state <> 'delivered' ORDER BY created_at DESC, id`,
      [filter.undelivered ?? false],
    );
    return rows.map(fromRow);
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
