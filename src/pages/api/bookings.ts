/** POST /api/bookings goes to the framework-free enquiry handler; other methods get 405 there. */
import type { APIRoute } from 'astro';
import { handleBookingEnquiry } from '../../../service/bookings/index.ts';
import { jsonAnswer } from '../../../service/bookings/responses.ts';
import { bookingDeps } from '../../../service/bookings/runtime.ts';
import { clientIp } from '../../../service/rules/client-ip.ts';
import { getCatalogue } from '../../lib/catalogue.ts';
import { runtimeSettings } from '../../lib/runtime.ts';

export const prerender = false;

function socketAddress(read: () => string): string | undefined {
  try {
    return read();
  } catch {
    return undefined; // the host could not tell; the request is then counted as "unknown"
  }
}

export const ALL: APIRoute = async (context) => {
  let deps;
  try {
    deps = await bookingDeps(runtimeSettings(), getCatalogue);
  } catch (error) {
    console.error(`[enquiries] not available: ${error instanceof Error ? error.message : String(error)}`);
    return jsonAnswer({ kind: 'error', code: 'storage_error', message: 'Enquiries cannot be taken just now. Please try again in a few minutes, or email us.' });
  }
  const ip = clientIp(context.request, runtimeSettings().TRUST_PROXY ?? 'none', socketAddress(() => context.clientAddress));
  return handleBookingEnquiry(context.request, deps, { clientIp: ip });
};
