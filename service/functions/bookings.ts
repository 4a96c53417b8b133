/**
 * The bookings function (service/bookings):
 *
 *   POST /api/bookings     a visitor's enquiry (JSON, or the plain HTML form)
 *   GET /enquiry-sent      the thank-you page of one enquiry, by its reference (?ref=)
 */
import { bodyFormat } from '../bookings/body.ts';
import { handleBookingEnquiry } from '../bookings/index.ts';
import { htmlAnswer, jsonAnswer, thankYouPath, type BookingAnswer, type PageWriter } from '../bookings/responses.ts';
import { bookingDeps } from '../bookings/runtime.ts';
import { handleThankYouPage } from '../bookings/thank-you.ts';
import { liveFunction, methodNotAllowed, withoutBodyForHead, type LiveFunction } from './live-function.ts';
import { livePageHtml } from './page-shell.ts';
import { renderQuota, type RenderAdmission } from './render-quota.ts';
import { clientOf, runtimeCatalogue, runtimeSettings } from './runtime.ts';

const writePage: PageWriter = (page) => livePageHtml(runtimeCatalogue(), 'page', page);

function logUnavailable(error: unknown): void {
  console.error(`[enquiries] not available: ${error instanceof Error ? error.message : String(error)}`);
}

/** The thank-you page is never kept (it is the enquirer's own): every view is a fresh render. */
async function thankYou(request: Request, url: URL, admit: RenderAdmission): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed(request.method, 'GET, HEAD');
  const refused = await admit(request, url);
  if (refused) return withoutBodyForHead(request, refused);
  const settings = runtimeSettings();
  const response = await handleThankYouPage(request, {
    catalogue: runtimeCatalogue(),
    enquiries: async () => (await bookingDeps(settings, async () => runtimeCatalogue())).enquiries,
    page: writePage,
  });
  return withoutBodyForHead(request, response);
}

export function bookingsFunction(): LiveFunction {
  const admit = renderQuota();
  return liveFunction('enquiries', async (request, url) => {
    if (url.pathname === thankYouPath) return thankYou(request, url, admit);
    let deps;
    try {
      deps = await bookingDeps(runtimeSettings(), async () => runtimeCatalogue());
    } catch (error) {
      logUnavailable(error);
      const answer: BookingAnswer = { kind: 'error', code: 'storage_error', message: 'Enquiries cannot be taken just now. Please try again in a few minutes, or email us.' };
      const form = request.method === 'POST' && bodyFormat(request.headers.get('Content-Type')) === 'form';
      return form ? htmlAnswer(answer, runtimeCatalogue(), writePage) : jsonAnswer(answer);
    }
    return handleBookingEnquiry(request, { ...deps, page: writePage }, { clientIp: clientOf(request) });
  });
}
