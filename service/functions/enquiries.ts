/**
 * The enquiry path as the functions that take enquiries receive it (POST /api/bookings and the
 * MCP tool send_enquiry): the instance's enquiry store, limit and live departures, with the
 * catalogue of the build the request is answered from, so an enquiry is checked against the trips
 * and group sizes its pages show, and mail goes from that build's contact address.
 */
import type { EnquiryDeps } from '../bookings/index.ts';
import { enquiryMailer, openEnquiryStorage, type EnquiryStorage } from '../bookings/runtime.ts';
import { liveDepartures } from './live-storage.ts';
import { kept, type LiveDeps, type LiveInstance } from './runtime.ts';

/** The instance's enquiry store and limit, opened at the first enquiry (and again after a failure). */
function enquiryStorage(instance: LiveInstance): () => Promise<EnquiryStorage> {
  return kept(() => openEnquiryStorage(instance.settings(), instance.counters));
}

/** The enquiry path of one build: opened at its first enquiry. */
export function enquiryPath(deps: LiveDeps): () => Promise<EnquiryDeps> {
  const storage = deps.shared(enquiryStorage);
  const departures = liveDepartures(deps);
  const mailer = kept(() => enquiryMailer(deps.settings(), deps.build.catalogue()));
  return async () => ({
    ...(await storage()),
    catalogue: deps.build.catalogue(),
    mailer: mailer(),
    // Read-only here: the seats of the date an enquiry names, through the one time bound on reads a
    // request waits for, as the pages read them.
    departures: departures.source(),
    clock: deps.clock,
  });
}
