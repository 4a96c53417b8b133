/**
 * The endpoint's dependencies as a deployment's settings describe them: the enquiry store on
 * the shared operational storage, the departures on the same storage (read for the seats of the
 * date an enquiry names), the mailer (Resend or the outbox), and the enquiry limit
 * counted on the process's shared counter store (in memory, Redis or Upstash), so the endpoint
 * and the MCP tool count one sender once.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import type { Settings } from '../config.ts';
import { bookingRateLimit } from '../rules/policy.ts';
import { createRateLimiter, type CounterStore } from '../rules/rate-limiter.ts';
import { openOperationalStorage } from '../storage/connection.ts';
import { createDepartureStore } from '../departures/store.ts';
import { recentReads } from '../departures/recent-reads.ts';
import { knownTrips } from '../departures/trips.ts';
import type { EnquiryDeps } from './index.ts';
import { mailerFromSettings } from './mailer.ts';
import { EnquiryStore } from './store.ts';

/** Everything but the page frame, which the host's function supplies. */
export type RuntimeBookingDeps = EnquiryDeps;

/**
 * The endpoint's dependencies for these settings, opened once per process by the functions'
 * runtime (service/functions/runtime.ts), which tries again on the next enquiry after a failure.
 */
export async function openBookingDeps(
  settings: Settings,
  catalogue: Catalogue,
  counters: () => Promise<CounterStore>,
): Promise<RuntimeBookingDeps> {
  const sql = await openOperationalStorage(settings);
  const enquiries = sql ? new EnquiryStore(sql) : null;
  // Migrate now so the first visitor does not wait; a store that is not ready retries per request.
  await enquiries?.ready().catch((error: unknown) => {
    console.error(`[enquiries] storage not ready yet: ${error instanceof Error ? error.message : String(error)}`);
  });
  const departures = createDepartureStore(settings, knownTrips(catalogue));
  return {
    catalogue,
    enquiries,
    // VERCEL=1 is set by the platform in every function: no local disk survives there.
    mailer: mailerFromSettings(settings, {
      contactEmail: catalogue.site.contactEmail,
      serverless: settings.VERCEL === '1',
    }),
    limiter: createRateLimiter(bookingRateLimit, await counters()),
    // Read-only here: the seats of the date an enquiry names, on the same storage, through the one
    // time bound on reads a request waits for, as the pages read them.
    departures: departures && recentReads(departures, settings),
    clock: () => new Date(),
  };
}
