/**
 * The endpoint's dependencies as a deployment's settings describe them: the enquiry store on
 * the shared operational storage, the departures on the same storage (read for the seats of the
 * date an enquiry names), the mailer (Resend or the outbox), and the enquiry limit
 * counted on the process's shared counter store (in memory, Redis or Upstash), so the endpoint
 * and the MCP tool count one sender once. Opened once per process, on the first enquiry.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import type { Settings } from '../config.ts';
import { sharedCounterStore } from '../rules/counter-stores.ts';
import { bookingRateLimit } from '../rules/policy.ts';
import { createRateLimiter } from '../rules/rate-limiter.ts';
import { openOperationalStorage } from '../storage/connection.ts';
import { createDepartureStore, type DepartureStore } from '../departures/store.ts';
import { recentReads, type RecentReads } from '../departures/recent-reads.ts';
import { knownTrips } from '../departures/trips.ts';
import type { EnquiryDeps } from './index.ts';
import { mailerFromSettings } from './mailer.ts';
import { EnquiryStore } from './store.ts';

/** Everything but the page frame, which the host's function supplies. */
export type RuntimeBookingDeps = EnquiryDeps;

/** The enquiry store, or null when OPERATIONAL_STORAGE=off. */
export async function openEnquiryStore(settings: Settings): Promise<EnquiryStore | null> {
  const sql = await openOperationalStorage(settings);
  return sql ? new EnquiryStore(sql) : null;
}

async function openBookingDeps(settings: Settings, catalogue: Catalogue): Promise<RuntimeBookingDeps> {
  const enquiries = await openEnquiryStore(settings);
  // Migrate now so the first visitor does not wait; a store that is not ready retries per request.
  await enquiries?.ready().catch((error: unknown) => {
    console.error(`[enquiries] storage not ready yet: ${error instanceof Error ? error.message : String(error)}`);
  });
  return {
    catalogue,
    enquiries,
    // VERCEL=1 is set by the platform in every function: no local disk survives there.
    mailer: mailerFromSettings(settings, { contactEmail: catalogue.site.contactEmail, serverless: settings.VERCEL === '1' }),
    limiter: createRateLimiter(bookingRateLimit, await sharedCounterStore(settings.counters)),
    // Read-only here: the seats of the date an enquiry names, on the same storage, through the one
    // time bound on reads a request waits for (RecentReads), as the pages read them.
    departures: readsOf(createDepartureStore(settings, knownTrips(catalogue)), settings),
    clock: () => new Date(),
  };
}

function readsOf(store: DepartureStore | null, settings: Settings): RecentReads | null {
  return store && recentReads(store, settings);
}

let opened: Promise<RuntimeBookingDeps> | undefined;

/** The endpoint's dependencies, opened once per process; a failure is retried on the next enquiry. */
export function bookingDeps(settings: Settings, catalogue: () => Promise<Catalogue>): Promise<RuntimeBookingDeps> {
  opened ??= catalogue()
    .then((loaded) => openBookingDeps(settings, loaded))
    .catch((error: unknown) => {
      opened = undefined;
      throw error;
    });
  return opened;
}
