/**
 * The bookings function: `POST /api/bookings`, a visitor's enquiry (service/bookings).
 */
import { handleBookingEnquiry } from '../bookings/index.ts';
import { jsonAnswer } from '../bookings/responses.ts';
import { bookingDeps } from '../bookings/runtime.ts';
import { liveFunction, type LiveFunction } from './live-function.ts';
import { clientOf, runtimeCatalogue, runtimeSettings } from './runtime.ts';

export function bookingsFunction(): LiveFunction {
  return liveFunction('enquiries', async (request) => {
    let deps;
    try {
      deps = await bookingDeps(runtimeSettings(), async () => runtimeCatalogue());
    } catch (error) {
      console.error(`[enquiries] not available: ${error instanceof Error ? error.message : String(error)}`);
      return jsonAnswer({ kind: 'error', code: 'storage_error', message: 'Enquiries cannot be taken just now. Please try again in a few minutes, or email us.' });
    }
    return handleBookingEnquiry(request, deps, { clientIp: clientOf(request) });
  });
}
