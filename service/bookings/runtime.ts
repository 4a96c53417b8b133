/**
 * The endpoint's dependencies as a deployment's settings describe them: the enquiry store on
 * the shared operational storage and the enquiry limit counted on the instance's shared counter
 * store (in memory, Redis or Upstash), so the endpoint and the MCP tool count one sender once,
 * opened once per instance; and the mailer (Resend or the outbox), which sends from the contact
 * address of the build an enquiry is answered from. The live functions add that build's catalogue
 * and the departures read for the seats of the date an enquiry names
 * (service/functions/enquiries.ts).
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import type { Settings } from '../config.ts';
import { bookingRateLimit } from '../rules/policy.ts';
import { createRateLimiter, type CounterStore } from '../rules/rate-limiter.ts';
import { openOperationalStorage } from '../storage/connection.ts';
import type { EnquiryDeps } from './index.ts';
import { mailerFromSettings, type Mailer } from './mailer.ts';
import { EnquiryStore } from './store.ts';

/** What an instance keeps of the enquiry path, whichever build answers. */
export type EnquiryStorage = Pick<EnquiryDeps, 'enquiries' | 'limiter'>;

/**
 * The enquiry store and limit for these settings, opened once per instance by the functions,
 * which try again on the next enquiry after a failure.
 */
export async function openEnquiryStorage(
  settings: Settings,
  counters: () => Promise<CounterStore>,
): Promise<EnquiryStorage> {
  const sql = await openOperationalStorage(settings);
  const enquiries = sql ? new EnquiryStore(sql) : null;
  // Migrate now so the first visitor does not wait; a store that is not ready retries per request.
  await enquiries?.ready().catch((error: unknown) => {
    console.error(`[enquiries] storage not ready yet: ${error instanceof Error ? error.message : String(error)}`);
  });
  return { enquiries, limiter: createRateLimiter(bookingRateLimit, await counters()) };
}

/** Where the enquiries of a build go: to and from its contact address unless the settings name others. */
export function enquiryMailer(settings: Settings, catalogue: Catalogue): Mailer {
  // VERCEL=1 is set by the platform in every function: no local disk survives there.
  return mailerFromSettings(settings, {
    contactEmail: catalogue.site.contactEmail,
    serverless: settings.VERCEL === '1',
  });
}
