/**
 * Sending the emails of alerts: the enquiry path's mailers (service/bookings/mailer.ts: Resend,
 * or the local outbox), each email to the address that asked for it, with RFC 8058's one-click
 * unsubscribe in its headers. An email is claimed before it is sent (store.ts), so two runs never
 * send it both; every attempt carries the same idempotency key (Resend answers a retry with the
 * first email) and the outbox never writes a file twice, so an attempt cut short is safe to repeat.
 * A failed email is tried again at the job's next run, up to ten times.
 */
import { OutboxMailer, ResendMailer, UnconfiguredMailer, type Mailer } from '../bookings/mailer.ts';
import { outboxDir } from '../bookings/outbox-drafts.ts';
import type { Settings } from '../config.ts';
import type { AlertStore, QueuedMail } from './store.ts';

/**
 * The mailer of alerts for these settings: Resend from BOOKING_EMAIL_FROM when RESEND_API_KEY is
 * set, the outbox under DATA_DIR otherwise, and nothing on a serverless host without Resend.
 */
export function alertMailer(settings: Settings, contactEmail: string): Mailer {
  if (settings.RESEND_API_KEY) {
    if (!settings.BOOKING_EMAIL_FROM)
      return new UnconfiguredMailer('RESEND_API_KEY is set but BOOKING_EMAIL_FROM, the sender of alerts, is not');
    return new ResendMailer({
      apiKey: settings.RESEND_API_KEY,
      baseUrl: settings.RESEND_BASE_URL,
      from: settings.BOOKING_EMAIL_FROM,
      to: contactEmail,
    });
  }
  // VERCEL=1 is set by the platform in every function: no local disk survives there.
  if (settings.VERCEL === '1')
    return new UnconfiguredMailer('RESEND_API_KEY is not set, and a serverless host keeps no local outbox');
  return new OutboxMailer({
    dir: outboxDir(settings),
    from: settings.BOOKING_EMAIL_FROM ?? `Departure alerts <${contactEmail}>`,
    to: contactEmail,
  });
}

/** RFC 8058: the address a mail client POSTs `List-Unsubscribe=One-Click` to, without cookies. */
function unsubscribeHeaders(url: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

export interface SendOutcome {
  delivered: string[];
  failed: string[];
}

async function sendOne(store: AlertStore, mailer: Mailer, mail: QueuedMail, clock: () => Date): Promise<boolean> {
  const result = await mailer.send({
    reference: mail.id,
    idempotencyKey: `alert-mail/${mail.id}`,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    headers: { ...unsubscribeHeaders(mail.unsubscribeUrl), 'Auto-Submitted': 'auto-generated' },
  });
  if (result.ok) {
    await store.markDelivered(mail.id, clock(), result.ref);
    return true;
  }
  console.error(`[alerts] ${mail.id} not delivered (attempt ${mail.attempts}): ${result.detail}`);
  await store.markFailed(mail.id, result.detail);
  return false;
}

/** Claims and sends emails (`ids`, or every one waiting), one at a time. */
export async function sendMails(
  store: AlertStore,
  mailer: Mailer,
  clock: () => Date,
  ids?: string[],
): Promise<SendOutcome> {
  const outcome: SendOutcome = { delivered: [], failed: [] };
  for (;;) {
    const claimed = await store.claimMails(clock(), ids ? { ids } : {});
    for (const mail of claimed) {
      const sent = await sendOne(store, mailer, mail, clock).catch((error: unknown) => {
        console.error(`[alerts] ${mail.id}: ${error instanceof Error ? error.message : String(error)}`);
        return false;
      });
      (sent ? outcome.delivered : outcome.failed).push(mail.id);
    }
    // Named emails are claimed at once; the rest in batches, until none is waiting.
    if (ids || claimed.length === 0) return outcome;
  }
}
