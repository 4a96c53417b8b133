/**
 * The bookings function (service/bookings):
 *
 *   POST /api/bookings     a visitor's enquiry (JSON, or the plain HTML form)
 *   GET /enquiry-sent      the thank-you page of one enquiry, by its reference (?ref=)
 */
import { bodyFormat } from '../bookings/body.ts';
import { handleBookingEnquiry, type EnquiryDeps } from '../bookings/index.ts';
import { thankYouPath } from '../bookings/enquiry.ts';
import { htmlAnswer, jsonAnswer, type BookingAnswer, type PageWriter } from '../bookings/responses.ts';
import { handleThankYouPage } from '../bookings/thank-you.ts';
import { clientOf, liveFunction, methodNotAllowed, withoutBodyForHead, type LiveFunction } from './live-function.ts';
import { livePageHtml } from './page-shell.ts';
import { enquiryPath } from './enquiries.ts';
import { renderQuota, type RenderAdmission } from './render-quota.ts';
import type { LiveDeps } from './runtime.ts';

function logUnavailable(error: unknown): void {
  console.error(`[enquiries] not available: ${error instanceof Error ? error.message : String(error)}`);
}

/** The thank-you page is never kept (it is the enquirer's own): every view is a fresh render. */
async function thankYou(
  deps: LiveDeps,
  enquiries: () => Promise<EnquiryDeps>,
  request: Request,
  url: URL,
  admit: RenderAdmission,
  writePage: PageWriter,
): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed(request.method, 'GET, HEAD');
  const refused = await admit(request, url);
  if (refused) return withoutBodyForHead(request, refused);
  const response = await handleThankYouPage(request, {
    catalogue: deps.build.catalogue(),
    enquiries: async () => (await enquiries()).enquiries,
    page: writePage,
  });
  return withoutBodyForHead(request, response);
}

export function bookingsFunction(deps: LiveDeps): LiveFunction {
  const admit = renderQuota(deps);
  const enquiries = enquiryPath(deps);
  const writePage: PageWriter = (page) => livePageHtml(deps.build, 'page', page);
  return liveFunction('enquiries', deps.build, async (request, { url }) => {
    if (url.pathname === thankYouPath) return thankYou(deps, enquiries, request, url, admit, writePage);
    let enquiry;
    try {
      enquiry = await enquiries();
    } catch (error) {
      logUnavailable(error);
      const answer: BookingAnswer = {
        kind: 'error',
        code: 'storage_error',
        message: 'Enquiries cannot be taken just now. Please try again in a few minutes, or email us.',
      };
      const form = request.method === 'POST' && bodyFormat(request.headers.get('Content-Type')) === 'form';
      return form ? htmlAnswer(answer, deps.build.catalogue(), writePage) : jsonAnswer(answer);
    }
    return handleBookingEnquiry(request, { ...enquiry, page: writePage }, { clientIp: clientOf(request) });
  });
}
