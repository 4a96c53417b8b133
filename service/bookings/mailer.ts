/**
 * How an enquiry email reaches the team: through Resend when RESEND_API_KEY is set, otherwise
 * into a local outbox (one .eml file per enquiry under DATA_DIR/outbox), so a checkout works
 * offline and the team can still read what arrived. Both are idempotent per enquiry: Resend
 * through the Idempotency-Key header, the outbox by never replacing a file.
 */
import { link, mkdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Resend } from 'resend';
import type { Settings } from '../config.ts';
import type { EnquiryEmail } from './email.ts';
import { draftFile, outboxDir } from './outbox-drafts.ts';

interface OutgoingEmail extends EnquiryEmail {
  /** The enquiry id, used to name the outbox file. */
  reference: string;
  idempotencyKey: string;
  /** The visitor's own address, when they gave one, so the team can simply reply. */
  replyTo?: string | undefined;
  /** Another recipient than the mailer's own (an alert goes to the address that asked for it). */
  to?: string | undefined;
  /** Headers of its own, such as an alert's List-Unsubscribe (RFC 8058). */
  headers?: Record<string, string> | undefined;
}

type DeliveryResult =
  | { ok: true; ref: string }
  /** `upstream`: the mail service failed or did not answer in time; `unavailable`: mail is not set up. */
  | { ok: false; reason: 'upstream' | 'unavailable'; detail: string };

export interface Mailer {
  /** Where mail goes, for logs and the enquiries command. */
  readonly description: string;
  send(email: OutgoingEmail): Promise<DeliveryResult>;
}

const defaultDeliveryTimeoutMs = 10_000;

export class ResendMailer implements Mailer {
  readonly description: string;
  readonly #apiKey: string;
  readonly #baseUrl: string | undefined;
  #client: Promise<Resend> | undefined;
  readonly #from: string;
  readonly #to: string;
  readonly #timeoutMs: number;

  constructor(options: { apiKey: string; baseUrl?: string | undefined; from: string; to: string; timeoutMs?: number }) {
    const baseUrl = options.baseUrl?.replace(/\/+$/, '');
    this.#apiKey = options.apiKey;
    this.#baseUrl = baseUrl;
    this.#from = options.from;
    this.#to = options.to;
    this.#timeoutMs = options.timeoutMs ?? defaultDeliveryTimeoutMs;
    this.description = `Resend (${baseUrl ?? 'https://api.resend.com'}) to ${options.to}`;
  }

  async send(email: OutgoingEmail): Promise<DeliveryResult> {
    const signal = AbortSignal.timeout(this.#timeoutMs);
    let result = await this.#attempt(email, signal);
    // A request that never got an HTTP answer (a stale keep-alive connection, a reset) is tried
    // once more at once: the idempotency key makes that safe even if the first one arrived.
    if (!result.ok && result.connectionFailed && !signal.aborted) result = await this.#attempt(email, signal);
    if (result.ok) return { ok: true, ref: result.ref };
    // The SDK reports an aborted request as a generic fetch failure; say what happened.
    const detail = signal.aborted ? `Resend: no answer within ${this.#timeoutMs} ms` : result.detail;
    return { ok: false, reason: 'upstream', detail };
  }

  /**
   * The SDK's client, loaded with the first email rather than with the function: most requests
   * send none. The base address is passed rather than left to the SDK's own RESEND_BASE_URL
   * lookup, so the settings stay the one source.
   */
  #resend(): Promise<Resend> {
    this.#client ??= import('resend').then(
      ({ Resend }) => new Resend(this.#apiKey, this.#baseUrl ? { baseUrl: this.#baseUrl } : undefined),
    );
    this.#client.catch(() => (this.#client = undefined));
    return this.#client;
  }

  async #attempt(
    email: OutgoingEmail,
    signal: AbortSignal,
  ): Promise<{ ok: true; ref: string } | { ok: false; connectionFailed: boolean; detail: string }> {
    try {
      const client = await this.#resend();
      const { data, error } = await client.emails.send(
        {
          from: this.#from,
          to: [email.to ?? this.#to],
          subject: email.subject,
          text: email.text,
          html: email.html,
          ...(email.replyTo ? { replyTo: email.replyTo } : {}),
          ...(email.headers ? { headers: email.headers } : {}),
        },
        { idempotencyKey: email.idempotencyKey, signal },
      );
      if (data && !error) return { ok: true, ref: `resend:${data.id}` };
      const statusCode = error && 'statusCode' in error ? error.statusCode : null;
      const status = statusCode ? `HTTP ${String(statusCode)}` : 'no answer';
      return {
        ok: false,
        connectionFailed: !statusCode,
        detail: `Resend: ${status}: ${error?.message ?? 'empty response'}`,
      };
    } catch (error) {
      return {
        ok: false,
        connectionFailed: true,
        detail: `Resend: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }
}

/** RFC 2047 for a header that is not plain ASCII. */
function headerText(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

export class OutboxMailer implements Mailer {
  readonly description: string;
  readonly #dir: string;
  readonly #from: string;
  readonly #to: string;

  constructor(options: { dir: string; from: string; to: string }) {
    this.#dir = options.dir;
    this.#from = options.from;
    this.#to = options.to;
    this.description = `local outbox ${options.dir}`;
  }

  /**
   * A MIME message any mail client opens; the text part comes first, so `cat` reads well too.
   * Every line ends with CRLF, as RFC 5322 asks, the parts' own lines included.
   */
  message(email: OutgoingEmail, date: Date): string {
    const boundary = `enquiry-${email.reference}`;
    const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n');
    return [
      `From: ${headerText(this.#from)}`,
      `To: ${headerText(email.to ?? this.#to)}`,
      // Checked as an email address when the enquiry was taken, so it cannot carry a line break.
      ...(email.replyTo ? [`Reply-To: ${email.replyTo}`] : []),
      `Subject: ${headerText(email.subject)}`,
      // Our own headers (List-Unsubscribe): fixed names, values without line breaks.
      ...Object.entries(email.headers ?? {}).map(([name, value]) => `${name}: ${value.replace(/[\r\n]+/g, ' ')}`),
      `Date: ${date.toUTCString()}`,
      `Message-ID: <${email.reference}@outbox.invalid>`,
      `Idempotency-Key: ${email.idempotencyKey}`,
      'MIME-Version: 1.0',
      `Content-Type: multipart/alternative; boundary="${boundary}"`,
      '',
      `--${boundary}`,
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      crlf(email.text),
      `--${boundary}`,
      'Content-Type: text/html; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      crlf(email.html),
      `--${boundary}--`,
      '',
    ].join('\r\n');
  }

  async send(email: OutgoingEmail): Promise<DeliveryResult> {
    const file = path.join(this.#dir, `${email.reference}.eml`);
    const partial = draftFile(this.#dir, email.reference);
    try {
      // Enquiries carry names and phone numbers: for the site's account only.
      await mkdir(this.#dir, { recursive: true, mode: 0o700 });
      await writeFile(partial, this.message(email, new Date()), { flag: 'wx', mode: 0o600 });
      // link() never replaces an existing file: a second delivery of the same enquiry is a no-op.
      await link(partial, file).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
      return { ok: true, ref: `outbox:${file}` };
    } catch (error) {
      return {
        ok: false,
        reason: 'unavailable',
        detail: `outbox ${this.#dir}: ${error instanceof Error ? error.message : String(error)}`,
      };
    } finally {
      await unlink(partial).catch(() => undefined);
    }
  }
}

/** Mail is meant to go through Resend but a setting is missing: nothing can be sent. */
export class UnconfiguredMailer implements Mailer {
  readonly description: string;
  constructor(problem: string) {
    this.description = `not configured: ${problem}`;
  }
  async send(): Promise<DeliveryResult> {
    return { ok: false, reason: 'unavailable', detail: this.description };
  }
}

/**
 * The mailer the settings describe; the outbox addresses fall back to the site's contact email.
 * On a serverless host the outbox would vanish with the instance, so there mail without
 * RESEND_API_KEY counts as not configured and enquiries stay stored until it is.
 */
export function mailerFromSettings(
  settings: Settings,
  options: { contactEmail: string; timeoutMs?: number; serverless?: boolean },
): Mailer {
  if (!settings.RESEND_API_KEY && options.serverless) {
    return new UnconfiguredMailer('RESEND_API_KEY is not set, and a serverless host keeps no local outbox');
  }
  if (settings.RESEND_API_KEY) {
    const missing = (['BOOKING_EMAIL_TO', 'BOOKING_EMAIL_FROM'] as const).filter((name) => !settings[name]);
    if (missing.length > 0)
      return new UnconfiguredMailer(
        `RESEND_API_KEY is set but ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not`,
      );
    return new ResendMailer({
      apiKey: settings.RESEND_API_KEY,
      baseUrl: settings.RESEND_BASE_URL,
      from: settings.BOOKING_EMAIL_FROM ?? '',
      to: settings.BOOKING_EMAIL_TO ?? '',
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    });
  }
  return new OutboxMailer({
    dir: outboxDir(settings),
    from: settings.BOOKING_EMAIL_FROM ?? `Booking enquiries <${options.contactEmail}>`,
    to: settings.BOOKING_EMAIL_TO ?? options.contactEmail,
  });
}
