/**
 * alertStore: watches, their links' tokens (hashed), the changes each was alerted about and the
 * emails queued for them, in operational storage (migration 61). Every step that must happen once
 * however many processes run it at the same moment is one transaction: asking (under a lock per
 * address), confirming, queueing the day's alerts (watches locked with SKIP LOCKED, each change
 * claimed once per watch), and claiming an email to send. Nothing here keeps session state, so it
 * runs through a pooler in transaction mode as directly.
 */
import type { DepartureChange, ChangeKind } from '../departures/changes.ts';
import { DepartureChangeLog } from '../departures/changes.ts';

// The change log beside the store, so the functions load both with one import (service/functions/alert-storage.ts).
export { DepartureChangeLog };
import { alertAddressQuota } from '../rules/policy.ts';
import { migrateOnce } from '../storage/migrations/index.ts';
import type { Sql } from '../storage/sql.ts';
import type { AlertMail } from './mails.ts';
import {
  addressKey,
  newRecordId,
  newToken,
  subjectKey,
  subjectOf,
  tokenHash,
  type Watch,
  type WatchSubject,
} from './watch.ts';
import { retention } from '../departures/alert-paths.ts';

type Query = Pick<Sql, 'query'>;

/** An email queued for a watch, as it is sent. */
export interface QueuedMail extends AlertMail {
  id: string;
  watchId: string;
  kind: 'confirm' | 'alert';
  to: string;
  unsubscribeUrl: string;
  attempts: number;
}

/** What a composed email carries besides its text: the one-click address of its List-Unsubscribe. */
export interface ComposedMail {
  mail: AlertMail;
  unsubscribeUrl: string;
}

/** A request to watch something. */
export interface WatchAsk {
  email: string;
  subject: WatchSubject;
  partySize: number;
  /** The last day it is kept (watch.ts `watchUntil`). */
  until: string;
}

/** What a change alerts a watch about (matching.ts), and the alert made of the changes found. */
export interface AlertPlan {
  kinds(watch: Watch, change: DepartureChange): ChangeKind[];
  compose(
    watch: Watch,
    found: { change: DepartureChange; kinds: ChangeKind[] }[],
    unsubscribeToken: string,
  ): ComposedMail;
}

interface WatchRow {
  id: string;
  email: string;
  subject: string;
  party_size: number;
  state: 'pending' | 'confirmed';
  created_at: Date | string;
  confirmed_at: Date | string | null;
  from_change: string | number;
}

interface MailRow {
  id: string;
  watch_id: string;
  kind: 'confirm' | 'alert';
  to_address: string;
  subject: string;
  body_text: string;
  body_html: string;
  unsubscribe_url: string;
  attempts: number;
}

const hours = (n: number) => n * 3_600_000;

function watchOf(row: WatchRow): Watch {
  return {
    id: row.id,
    email: row.email,
    subject: subjectOf(row.subject),
    partySize: row.party_size,
    state: row.state,
    createdAt: new Date(row.created_at),
    confirmedAt: row.confirmed_at === null ? null : new Date(row.confirmed_at),
    fromChange: Number(row.from_change),
  };
}

function mailOf(row: MailRow): QueuedMail {
  return {
    id: row.id,
    watchId: row.watch_id,
    kind: row.kind,
    to: row.to_address,
    subject: row.subject,
    text: row.body_text,
    html: row.body_html,
    unsubscribeUrl: row.unsubscribe_url,
    attempts: row.attempts,
  };
}

const watchColumns = 'id, email, subject, party_size, state, created_at, confirmed_at, from_change';

/** The advisory lock asking takes per address (two-key form: this number and the address's hash). */
const askLock = 20_261_201;

async function addToken(tx: Query, watchId: string, purpose: 'confirm' | 'unsubscribe', now: Date): Promise<string> {
  const token = newToken();
  await tx.query('INSERT INTO watch_tokens (token_hash, watch_id, purpose, created_at) VALUES ($1, $2, $3, $4)', [
    tokenHash(token),
    watchId,
    purpose,
    now.toISOString(),
  ]);
  return token;
}

async function queueMail(
  tx: Query,
  watch: Pick<Watch, 'id' | 'email'>,
  kind: 'confirm' | 'alert',
  composed: ComposedMail,
  now: Date,
): Promise<string> {
  const id = newRecordId(kind, now);
  await tx.query(
    `INSERT INTO alert_mails (id, watch_id, kind, to_address, subject, body_text, body_html, unsubscribe_url, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      id,
      watch.id,
      kind,
      watch.email,
      composed.mail.subject,
      composed.mail.text,
      composed.mail.html,
      composed.unsubscribeUrl,
      now.toISOString(),
    ],
  );
  return id;
}

export class AlertStore {
  readonly sql: Sql;
  /** Migrates once; a failure is forgotten so the next call tries again. */
  readonly ready: () => Promise<void>;

  constructor(sql: Sql) {
    this.sql = sql;
    this.ready = migrateOnce(sql);
  }

  /**
   * Asks to watch: keeps the watch (pending) and queues its confirmation email, unless the
   * address already watches this (confirmed: nothing is sent; pending: the confirmation is sent
   * again) or is over its quota (nothing is kept or sent). The answer is the same whichever: the
   * caller learns only the email queued, if any, to send it.
   */
  async ask(
    ask: WatchAsk,
    now: Date,
    compose: (watch: Watch, confirmToken: string, unsubscribeToken: string) => ComposedMail,
  ): Promise<string | null> {
    await this.ready();
    const key = addressKey(ask.email);
    const subject = subjectKey(ask.subject);
    return this.sql.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [askLock, key]);
      await tx.query(`DELETE FROM watches WHERE state = 'pending' AND created_at < $1`, [
        new Date(now.getTime() - hours(retention.confirmHours)).toISOString(),
      ]);
      const { rows: mine } = await tx.query<WatchRow>(`SELECT ${watchColumns} FROM watches WHERE email_key = $1`, [
        key,
      ]);
      const existing = mine.find((row) => row.subject === subject);
      if (existing?.state === 'confirmed') return null;
      if (!existing && mine.length >= alertAddressQuota.watches) return null;
      const { rows: sent } = await tx.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM alert_mails m JOIN watches w ON w.id = m.watch_id
         WHERE w.email_key = $1 AND m.kind = 'confirm' AND m.created_at > $2`,
        [key, new Date(now.getTime() - hours(24)).toISOString()],
      );
      if ((sent[0]?.n ?? 0) >= alertAddressQuota.confirmationsPerDay) return null;
      let row: WatchRow;
      if (existing) {
        // Asked again before confirming: the new link works from now, for the party size asked now.
        ({
          rows: [row],
        } = (await tx.query<WatchRow>(
          `UPDATE watches SET created_at = $2, party_size = $3, until = $4 WHERE id = $1 RETURNING ${watchColumns}`,
          [existing.id, now.toISOString(), ask.partySize, ask.until],
        )) as { rows: [WatchRow] });
      } else {
        ({
          rows: [row],
        } = (await tx.query<WatchRow>(
          `INSERT INTO watches (id, email, email_key, subject, departure_id, party_size, until, state, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8) RETURNING ${watchColumns}`,
          [
            newRecordId('watch', now),
            ask.email.trim(),
            key,
            subject,
            ask.subject.kind === 'departure' ? ask.subject.departureId : null,
            ask.partySize,
            ask.until,
            now.toISOString(),
          ],
        )) as { rows: [WatchRow] });
      }
      const watch = watchOf(row);
      const confirm = await addToken(tx, watch.id, 'confirm', now);
      const unsubscribe = await addToken(tx, watch.id, 'unsubscribe', now);
      return queueMail(tx, watch, 'confirm', compose(watch, confirm, unsubscribe), now);
    });
  }

  /** The watch a link's token belongs to, or null (unknown, gone, or a confirmation link past its time). */
  async watchOfToken(token: string, purpose: 'confirm' | 'unsubscribe', now: Date): Promise<Watch | null> {
    await this.ready();
    const { rows } = await this.sql.query<WatchRow>(
      `SELECT ${watchColumns.replace(/(\w+)/g, 'w.$1')} FROM watch_tokens t JOIN watches w ON w.id = t.watch_id
       WHERE t.token_hash = $1 AND t.purpose = $2`,
      [tokenHash(token), purpose],
    );
    const watch = rows[0] ? watchOf(rows[0]) : null;
    if (watch?.state === 'pending' && now.getTime() - watch.createdAt.getTime() > hours(retention.confirmHours))
      return null;
    return watch;
  }

  /**
   * Confirms the watch of a confirmation link: from now on it hears of changes recorded after
   * this moment. Confirming twice is confirming once. Null when the link is unknown or expired.
   */
  async confirm(token: string, now: Date): Promise<Watch | null> {
    const watch = await this.watchOfToken(token, 'confirm', now);
    if (!watch || watch.state === 'confirmed') return watch;
    const { rows } = await this.sql.query<WatchRow>(
      `UPDATE watches SET state = 'confirmed', confirmed_at = $2,
         from_change = (SELECT coalesce(max(id), 0) FROM departure_changes)
       WHERE id = $1 AND state = 'pending' RETURNING ${watchColumns}`,
      [watch.id, now.toISOString()],
    );
    return rows[0] ? watchOf(rows[0]) : this.watchOfToken(token, 'confirm', now);
  }

  /**
   * Stops the watch of an unsubscribe link, or (`everything`) every watch of its address. Its
   * queued emails, tokens and claims go with it. The number of watches stopped (0 when the link
   * names none any more: stopping twice is stopping once).
   */
  async unsubscribe(token: string, scope: 'watch' | 'everything'): Promise<number> {
    await this.ready();
    const { rows } = await this.sql.query<{ id: string }>(
      scope === 'watch'
        ? `DELETE FROM watches WHERE id = (SELECT watch_id FROM watch_tokens WHERE token_hash = $1 AND purpose = 'unsubscribe') RETURNING id`
        : `DELETE FROM watches WHERE email_key = (SELECT w.email_key FROM watch_tokens t JOIN watches w ON w.id = t.watch_id
             WHERE t.token_hash = $1 AND t.purpose = 'unsubscribe') RETURNING id`,
      [tokenHash(token)],
    );
    return rows.length;
  }

  /**
   * Deletes what is no longer kept: unconfirmed watches past their link's time, watches of a
   * departure that has started (by `today`, in India), searches past their last day, and changes
   * older than the change log keeps. Returns how many watches went.
   */
  async purge(now: Date, today: string): Promise<number> {
    await this.ready();
    return this.sql.transaction(async (tx) => {
      let gone = 0;
      for (const [statement, value] of [
        [
          `DELETE FROM watches WHERE state = 'pending' AND created_at < $1 RETURNING id`,
          new Date(now.getTime() - hours(retention.confirmHours)).toISOString(),
        ],
        [
          `DELETE FROM watches w USING departures d WHERE w.departure_id = d.id AND d.start_date <= $1::date RETURNING w.id`,
          today,
        ],
        [`DELETE FROM watches WHERE departure_id IS NULL AND until <= $1::date RETURNING id`, today],
      ] as const)
        gone += (await tx.query(statement, [value])).rows.length;
      await tx.query('DELETE FROM departure_changes WHERE recorded_at < $1', [
        new Date(now.getTime() - hours(24 * retention.changesDays)).toISOString(),
      ]);
      return gone;
    });
  }

  /**
   * Queues today's alerts: each confirmed watch not alerted in the last day, locked for this
   * transaction (another run at the same moment skips it), gets one email naming every change
   * recorded since its confirmation that concerns it and was not named before. Each change is
   * claimed once per watch (`watch_alerted`), in the same transaction as its email. Returns the
   * ids of the emails queued.
   */
  async queueAlerts(now: Date, plan: AlertPlan): Promise<string[]> {
    await this.ready();
    return this.sql.transaction(async (tx) => {
      const { rows } = await tx.query<WatchRow>(
        `SELECT ${watchColumns} FROM watches
         WHERE state = 'confirmed' AND (last_alert_at IS NULL OR last_alert_at <= $1)
         ORDER BY id FOR UPDATE SKIP LOCKED`,
        [new Date(now.getTime() - hours(retention.alertEveryHours)).toISOString()],
      );
      if (rows.length === 0) return [];
      const watches = rows.map(watchOf);
      const changes = await new DepartureChangeLog(tx).after(Math.min(...watches.map((w) => w.fromChange)));
      if (changes.length === 0) return [];
      const { rows: claimed } = await tx.query<{ watch_id: string; change_id: string | number }>(
        'SELECT watch_id, change_id FROM watch_alerted WHERE watch_id = ANY($1::text[])',
        [watches.map((w) => w.id)],
      );
      const named = new Set(claimed.map((c) => `${c.watch_id}|${Number(c.change_id)}`));
      const queued: string[] = [];
      for (const watch of watches) {
        const found = changes
          .filter((change) => change.id > watch.fromChange && !named.has(`${watch.id}|${change.id}`))
          .map((change) => ({ change, kinds: plan.kinds(watch, change) }))
          .filter(({ kinds }) => kinds.length > 0);
        if (found.length === 0) continue;
        const unsubscribe = await addToken(tx, watch.id, 'unsubscribe', now);
        const id = await queueMail(tx, watch, 'alert', plan.compose(watch, found, unsubscribe), now);
        for (const { change } of found)
          await tx.query(
            'INSERT INTO watch_alerted (watch_id, change_id, mail_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
            [watch.id, change.id, id],
          );
        await tx.query('UPDATE watches SET last_alert_at = $2 WHERE id = $1', [watch.id, now.toISOString()]);
        queued.push(id);
      }
      return queued;
    });
  }

  /**
   * Claims emails to send now: those queued, those that failed at least `retryAfterMs` ago (at
   * most `maxAttempts` tries in all), and those whose sending began `staleAfterMs` ago without an
   * outcome (a process stopped mid-send). With
   * `ids`, only those. A claimed email is this caller's alone: another run skips it.
   */
  async claimMails(now: Date, options: { ids?: string[]; limit?: number } = {}): Promise<QueuedMail[]> {
    await this.ready();
    const { rows } = await this.sql.query<MailRow>(
      `UPDATE alert_mails SET delivery_state = 'sending', attempts = attempts + 1, last_attempt_at = $1
       WHERE id IN (
         SELECT id FROM alert_mails
         WHERE (delivery_state = 'pending' OR (delivery_state = 'failed' AND last_attempt_at < $6)
             OR (delivery_state = 'sending' AND last_attempt_at < $2))
           AND attempts < $3 AND ($4::text[] IS NULL OR id = ANY($4::text[]))
         ORDER BY created_at LIMIT $5 FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [
        now.toISOString(),
        new Date(now.getTime() - mailLimits.staleAfterMs).toISOString(),
        mailLimits.maxAttempts,
        options.ids ?? null,
        options.limit ?? 50,
        new Date(now.getTime() - mailLimits.retryAfterMs).toISOString(),
      ],
    );
    return rows.map(mailOf);
  }

  /** Sent: the address and text are cleared (they held the links' tokens); the record stays with its watch. */
  async markDelivered(id: string, now: Date, ref: string): Promise<void> {
    await this.sql.query(
      `UPDATE alert_mails SET delivery_state = 'delivered', delivered_at = $2, delivery_ref = $3, last_error = NULL,
         to_address = NULL, subject = NULL, body_text = NULL, body_html = NULL, unsubscribe_url = NULL
       WHERE id = $1`,
      [id, now.toISOString(), ref],
    );
  }

  async markFailed(id: string, error: string): Promise<void> {
    await this.sql.query(
      `UPDATE alert_mails SET delivery_state = 'failed', last_error = $2 WHERE id = $1 AND delivery_state <> 'delivered'`,
      [id, error.slice(0, 1000)],
    );
  }
}

/**
 * How emails are retried: a failed one at a later run (a minute on at least), a sending cut short
 * after two minutes, each email at most ten times.
 */
const mailLimits = { retryAfterMs: 60_000, staleAfterMs: 120_000, maxAttempts: 10 } as const;
