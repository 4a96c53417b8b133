/**
 * agentRegistry: agent registrations in operational storage, the claims a person confirms,
 * single-use assertion ids and revoked access tokens. Claim tokens and user codes are kept
 * only as SHA-256 hashes. Every time comes from the caller, so tests can move the clock.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { migrate } from '../storage/migrations/index.ts';
import type { Sql } from '../storage/sql.ts';
import { lifetimes } from './metadata.ts';

export type RegistrationKind = 'anonymous' | 'identity_assertion' | 'verified_email';
type RegistrationStatus = 'pending' | 'active' | 'revoked';

export interface Registration {
  id: string;
  kind: RegistrationKind;
  status: RegistrationStatus;
  issuer: string | null;
  subject: string | null;
  clientId: string | null;
  createdAt: Date;
}

export interface Claim {
  registrationId: string;
  userCodeExpiresAt: Date;
  expiresAt: Date;
  intervalSeconds: number;
  lastPolledAt: Date | null;
  confirmedAt: Date | null;
  redeemedAt: Date | null;
}

/** What a registration hands the agent once, in plain text. */
export interface ClaimSecrets {
  claimToken: string;
  userCode: string;
}

interface RegistrationRow {
  id: string;
  kind: RegistrationKind;
  status: RegistrationStatus;
  issuer: string | null;
  subject: string | null;
  client_id: string | null;
  created_at: Date;
}

interface ClaimRow {
  registration_id: string;
  user_code_expires_at: Date;
  expires_at: Date;
  interval_seconds: number;
  last_polled_at: Date | null;
  confirmed_at: Date | null;
  redeemed_at: Date | null;
}

const registrationColumns = 'r.id, r.kind, r.status, r.issuer, r.subject, r.client_id, r.created_at';
const claimColumns =
  'c.registration_id, c.user_code_expires_at, c.expires_at, c.interval_seconds, c.last_polled_at, c.confirmed_at, c.redeemed_at';

function toRegistration(row: RegistrationRow): Registration {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    issuer: row.issuer,
    subject: row.subject,
    clientId: row.client_id,
    createdAt: new Date(row.created_at),
  };
}

function toClaim(row: ClaimRow): Claim {
  const date = (d: Date | null) => (d === null ? null : new Date(d));
  return {
    registrationId: row.registration_id,
    userCodeExpiresAt: new Date(row.user_code_expires_at),
    expiresAt: new Date(row.expires_at),
    intervalSeconds: row.interval_seconds,
    lastPolledAt: date(row.last_polled_at),
    confirmedAt: date(row.confirmed_at),
    redeemedAt: date(row.redeemed_at),
  };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** RFC 8628 §6.1: consonants only (no vowels, so no words), no look-alike letters. */
const userCodeAlphabet = 'BCDFGHJKLMNPQRSTVWXZ';

function newUserCode(): string {
  const chars = Array.from({ length: 8 }, () => userCodeAlphabet[randomInt(userCodeAlphabet.length)]);
  return `${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`;
}

/** What a person typed, reduced to the code's letters: case, spaces and dashes do not matter. */
export function normalizeUserCode(typed: string): string | null {
  const letters = typed.toUpperCase().replace(/[\s-]+/g, '');
  if (letters.length !== 8 || [...letters].some((c) => !userCodeAlphabet.includes(c))) return null;
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}

const token = (prefix: string, bytes: number) => `${prefix}${randomBytes(bytes).toString('base64url')}`;

export interface NewRegistration {
  kind: RegistrationKind;
  status: RegistrationStatus;
  issuer?: string | undefined;
  subject?: string | undefined;
  clientId?: string | undefined;
  emailHint?: string | undefined;
}

export interface ClaimWindow {
  userCodeSeconds: number;
  claimSeconds: number;
  intervalSeconds: number;
}

export class AgentRegistry {
  readonly #sql: Sql;
  #ready: Promise<void> | undefined;
  #lastPrune = 0;

  constructor(sql: Sql) {
    this.#sql = sql;
  }

  /** Migrates once; a failure is forgotten so the next request tries again. */
  ready(): Promise<void> {
    this.#ready ??= migrate(this.#sql)
      .then(() => undefined)
      .catch((error: unknown) => {
        this.#ready = undefined;
        throw error;
      });
    return this.#ready;
  }

  /** Records an assertion id; false when the issuer already used it (a replay). */
  async useAssertionId(issuer: string, jti: string, expiresAt: Date): Promise<boolean> {
    await this.ready();
    const { rows } = await this.#sql.query(
      'INSERT INTO agent_used_assertions (issuer, jti, expires_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING jti',
      [issuer, jti, expiresAt],
    );
    return rows.length === 1;
  }

  async register(input: NewRegistration, now: Date): Promise<Registration> {
    await this.ready();
    await this.#prune(now);
    const { rows } = await this.#sql.query<RegistrationRow>(
      `INSERT INTO agent_registrations AS r (id, kind, status, issuer, subject, client_id, email_hint, created_at, confirmed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, CASE WHEN $3 = 'active' THEN $8::timestamptz END)
       RETURNING ${registrationColumns}`,
      [
        token('reg_', 18),
        input.kind,
        input.status,
        input.issuer ?? null,
        input.subject ?? null,
        input.clientId ?? null,
        input.emailHint ?? null,
        now,
      ],
    );
    const row = rows[0];
    if (!row) throw new Error('registration insert returned nothing');
    return toRegistration(row);
  }

  /** Opens the claim of a pending registration: a claim token for the agent, a user code for a person. */
  async openClaim(registrationId: string, window: ClaimWindow, now: Date): Promise<ClaimSecrets & { claim: Claim }> {
    const claimToken = token('clm_', 32);
    const userCode = newUserCode();
    const { rows } = await this.#sql.query<ClaimRow>(
      `INSERT INTO agent_claims AS c (registration_id, claim_token_hash, user_code_hash, user_code_expires_at, expires_at, interval_seconds)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${claimColumns}`,
      [
        registrationId,
        sha256(claimToken),
        sha256(userCode),
        new Date(now.getTime() + window.userCodeSeconds * 1000),
        new Date(now.getTime() + window.claimSeconds * 1000),
        window.intervalSeconds,
      ],
    );
    const row = rows[0];
    if (!row) throw new Error('claim insert returned nothing');
    return { claimToken, userCode, claim: toClaim(row) };
  }

  async findRegistration(id: string): Promise<Registration | null> {
    await this.ready();
    const { rows } = await this.#sql.query<RegistrationRow>(
      `SELECT ${registrationColumns} FROM agent_registrations r WHERE r.id = $1`,
      [id],
    );
    return rows[0] ? toRegistration(rows[0]) : null;
  }

  async findClaimOf(registrationId: string): Promise<Claim | null> {
    const { rows } = await this.#sql.query<ClaimRow>(
      `SELECT ${claimColumns} FROM agent_claims c WHERE c.registration_id = $1`,
      [registrationId],
    );
    return rows[0] ? toClaim(rows[0]) : null;
  }

  async findByClaimToken(claimToken: string): Promise<{ registration: Registration; claim: Claim } | null> {
    await this.ready();
    const { rows } = await this.#sql.query<RegistrationRow & ClaimRow>(
      `SELECT ${registrationColumns}, ${claimColumns} FROM agent_claims c JOIN agent_registrations r ON r.id = c.registration_id WHERE c.claim_token_hash = $1`,
      [sha256(claimToken)],
    );
    const row = rows[0];
    return row ? { registration: toRegistration(row), claim: toClaim(row) } : null;
  }

  /** A new user code for an open claim (the old one stops working). */
  async renewUserCode(
    registrationId: string,
    userCodeSeconds: number,
    now: Date,
  ): Promise<{ userCode: string; claim: Claim }> {
    const userCode = newUserCode();
    const { rows } = await this.#sql.query<ClaimRow>(
      `UPDATE agent_claims c SET user_code_hash = $2, user_code_expires_at = $3 WHERE c.registration_id = $1 RETURNING ${claimColumns}`,
      [registrationId, sha256(userCode), new Date(now.getTime() + userCodeSeconds * 1000)],
    );
    const row = rows[0];
    if (!row) throw new Error('claim to renew not found');
    return { userCode, claim: toClaim(row) };
  }

  /**
   * A person typed `userCode`: confirms the registration it belongs to, if the code is current.
   * A pending registration becomes active; an active (anonymous) one is thereby attached to that
   * person. One statement, so a code confirms at most once.
   */
  async confirmByUserCode(userCode: string, now: Date): Promise<Registration | null> {
    await this.ready();
    const { rows } = await this.#sql.query<RegistrationRow>(
      `WITH confirmed AS (
         UPDATE agent_claims SET confirmed_at = $2
         WHERE user_code_hash = $1 AND confirmed_at IS NULL AND user_code_expires_at > $2 AND expires_at > $2
         RETURNING registration_id
       )
       UPDATE agent_registrations r SET status = 'active', confirmed_at = $2
       FROM confirmed WHERE r.id = confirmed.registration_id AND r.status IN ('pending', 'active')
       RETURNING ${registrationColumns}`,
      [sha256(userCode), now],
    );
    return rows[0] ? toRegistration(rows[0]) : null;
  }

  /**
   * Records a poll of the claim grant and returns the claim as it was before it. A poll sooner
   * than the interval adds 5 seconds to it (RFC 8628 §3.5), up to a minute.
   */
  async recordPoll(
    registrationId: string,
    now: Date,
  ): Promise<{ before: Claim; tooSoon: boolean; intervalSeconds: number } | null> {
    return this.#sql.transaction(async (tx) => {
      const { rows } = await tx.query<ClaimRow>(
        `SELECT ${claimColumns} FROM agent_claims c WHERE c.registration_id = $1 FOR UPDATE`,
        [registrationId],
      );
      if (!rows[0]) return null;
      const before = toClaim(rows[0]);
      const tooSoon =
        before.lastPolledAt !== null && now.getTime() - before.lastPolledAt.getTime() < before.intervalSeconds * 1000;
      const intervalSeconds = tooSoon ? Math.min(before.intervalSeconds + 5, 60) : before.intervalSeconds;
      await tx.query('UPDATE agent_claims SET last_polled_at = $2, interval_seconds = $3 WHERE registration_id = $1', [
        registrationId,
        now,
        intervalSeconds,
      ]);
      return { before, tooSoon, intervalSeconds };
    });
  }

  /** Marks a confirmed claim as handed out; false when it already was (claim tokens are single-use). */
  async redeemClaim(registrationId: string, now: Date): Promise<boolean> {
    const { rows } = await this.#sql.query(
      'UPDATE agent_claims SET redeemed_at = $2 WHERE registration_id = $1 AND confirmed_at IS NOT NULL AND redeemed_at IS NULL RETURNING registration_id',
      [registrationId, now],
    );
    return rows.length === 1;
  }

  async revokeRegistration(id: string, now: Date): Promise<boolean> {
    await this.ready();
    const { rows } = await this.#sql.query(
      "UPDATE agent_registrations SET status = 'revoked', revoked_at = $2 WHERE id = $1 AND status <> 'revoked' RETURNING id",
      [id, now],
    );
    return rows.length === 1;
  }

  /** Revokes every registration an identity provider made for one of its subjects. */
  async revokeSubject(issuer: string, subject: string, now: Date): Promise<number> {
    await this.ready();
    const { rows } = await this.#sql.query(
      "UPDATE agent_registrations SET status = 'revoked', revoked_at = $3 WHERE issuer = $1 AND subject = $2 AND status <> 'revoked' RETURNING id",
      [issuer, subject, now],
    );
    return rows.length;
  }

  async revokeAccessToken(jti: string, expiresAt: Date): Promise<void> {
    await this.ready();
    await this.#sql.query('INSERT INTO agent_revoked_tokens (jti, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
      jti,
      expiresAt,
    ]);
  }

  async isAccessTokenRevoked(jti: string): Promise<boolean> {
    await this.ready();
    const { rows } = await this.#sql.query('SELECT 1 FROM agent_revoked_tokens WHERE jti = $1', [jti]);
    return rows.length > 0;
  }

  /**
   * Forgets what can no longer matter: expired ids and tokens, lapsed pending registrations, and
   * anonymous registrations nobody claimed whose identity assertion has expired (nothing can
   * exchange for them any more; a claimed one got a fresh assertion and is kept).
   */
  async #prune(now: Date): Promise<void> {
    if (now.getTime() - this.#lastPrune < 60_000) return;
    this.#lastPrune = now.getTime();
    await this.#sql.query('DELETE FROM agent_used_assertions WHERE expires_at < $1', [now]);
    await this.#sql.query('DELETE FROM agent_revoked_tokens WHERE expires_at < $1', [now]);
    await this.#sql.query(
      "DELETE FROM agent_registrations r USING agent_claims c WHERE c.registration_id = r.id AND r.status = 'pending' AND c.expires_at < $1",
      [now],
    );
    await this.#sql.query(
      "DELETE FROM agent_registrations r USING agent_claims c WHERE c.registration_id = r.id AND r.kind = 'anonymous' AND c.confirmed_at IS NULL AND r.created_at < $1",
      [new Date(now.getTime() - lifetimes.identityAssertionSeconds * 1000)],
    );
  }
}
