/**
 * One delivery attempt of a stored enquiry, used by the endpoint right after storing it and
 * by `npm run enquiries -- retry`. Every attempt of an enquiry sends the same email with the
 * same idempotency key, so an attempt that reached the mail service but was not recorded
 * (a crash, storage failing afterwards) cannot email the team twice.
 */
import { composeEnquiryEmail } from './email.ts';
import type { Mailer } from './mailer.ts';
import type { EnquiryStore, StoredEnquiry } from './store.ts';

export type DeliveryOutcome =
  | { state: 'delivered'; enquiry: StoredEnquiry; ref: string }
  | { state: 'failed'; enquiry: StoredEnquiry; reason: 'upstream' | 'unavailable'; detail: string }
  /** Unknown id, or delivered before: nothing was sent. */
  | { state: 'skipped' };

export interface DeliveryDeps {
  enquiries: EnquiryStore;
  mailer: Mailer;
  clock: () => Date;
}

function log(message: string): void {
  console.error(`[enquiries] ${message}`);
}

export async function deliverEnquiry(id: string, { enquiries, mailer, clock }: DeliveryDeps): Promise<DeliveryOutcome> {
  const enquiry = await enquiries.beginAttempt(id, clock());
  if (!enquiry) return { state: 'skipped' };
  const email = composeEnquiryEmail(enquiry);
  const result = await mailer.send({
    ...email,
    reference: enquiry.id,
    idempotencyKey: enquiry.idempotencyKey,
    replyTo: enquiry.email ?? undefined,
  });
  if (result.ok) {
    await enquiries.markDelivered(enquiry.id, clock(), result.ref).catch((error: unknown) => {
      // The team has the email; a later retry resends with the same key, which the mail service ignores.
      log(
        `${enquiry.id} delivered (${result.ref}) but not recorded: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    return { state: 'delivered', enquiry, ref: result.ref };
  }
  log(`${enquiry.id} not delivered (attempt ${enquiry.attempts}): ${result.detail}`);
  await enquiries.markFailed(enquiry.id, result.detail).catch((error: unknown) => {
    log(`${enquiry.id} failure not recorded: ${error instanceof Error ? error.message : String(error)}`);
  });
  return { state: 'failed', enquiry, reason: result.reason, detail: result.detail };
}
