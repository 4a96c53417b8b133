/**
 * The answers of POST /api/bookings, in two forms: JSON for scripts and the enhanced form, and
 * for the plain HTML form (no JavaScript) a 303 to the thank-you page on success or a small
 * HTML page that says what went wrong and links back.
 */
import type { Catalogue } from '../catalogue/index.ts';
import { escapeHtml } from './email.ts';
import type { FieldError } from './enquiry.ts';
import type { StoredEnquiry } from './store.ts';

export const thankYouPath = '/enquiry-sent';

export type BookingErrorCode =
  | 'invalid_enquiry'
  | 'cross_site_form'
  | 'method_not_allowed'
  | 'rate_limited'
  | 'storage_error'
  | 'delivery_failed'
  | 'enquiries_unavailable'
  | 'delivery_unavailable';

export const bookingErrorStatus: Record<BookingErrorCode, number> = {
  invalid_enquiry: 400,
  cross_site_form: 403,
  method_not_allowed: 405,
  rate_limited: 429,
  storage_error: 502,
  delivery_failed: 502,
  enquiries_unavailable: 503,
  delivery_unavailable: 503,
};

export type BookingAnswer =
  | { kind: 'received'; enquiry: StoredEnquiry }
  | {
      kind: 'error';
      code: BookingErrorCode;
      message: string;
      /** Problems with single fields, first one first. */
      fields?: FieldError[];
      /** Set when the enquiry was kept although it could not be delivered. */
      saved?: StoredEnquiry;
      /** The trip the visitor was looking at, for the link back. */
      tripSlug?: string | undefined;
      headers?: Record<string, string>;
    };

export function nextStep(enquiry: StoredEnquiry): string {
  return `Thank you, ${enquiry.name}. A guide will call you on ${enquiry.phone} to confirm seats and dates for ${enquiry.trip.name}; nothing is booked until then.`;
}

function savedNote(enquiry: StoredEnquiry): string {
  return `Your enquiry is saved (reference ${enquiry.id}) and will be passed to the team as soon as mail works again; you do not need to send it again.`;
}

const noStore = { 'Cache-Control': 'no-store' };

export function jsonAnswer(answer: BookingAnswer): Response {
  if (answer.kind === 'received') {
    const { enquiry } = answer;
    const body = { enquiry: { id: enquiry.id, status: 'received', tripSlug: enquiry.tripSlug }, next: nextStep(enquiry) };
    return Response.json(body, { status: 201, headers: noStore });
  }
  const first = answer.fields?.[0];
  const body = {
    error: {
      code: answer.code,
      message: answer.message,
      ...(first ? { field: first.field } : {}),
      ...(answer.fields && answer.fields.length > 0 ? { fields: answer.fields } : {}),
    },
    ...(answer.saved ? { enquiry: { id: answer.saved.id, status: 'saved', tripSlug: answer.saved.tripSlug }, next: savedNote(answer.saved) } : {}),
  };
  return Response.json(body, { status: bookingErrorStatus[answer.code], headers: { ...noStore, ...answer.headers } });
}

function page(title: string, paragraphs: string[], extra = ''): string {
  return [
    '<!doctype html>',
    '<html lang="en-IN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title><meta name="robots" content="noindex"></head>`,
    `<body><main><h1>${escapeHtml(title)}</h1>`,
    ...paragraphs.map((p) => `<p>${p}</p>`),
    extra,
    '</main></body></html>',
  ].join('\n');
}

export function htmlAnswer(answer: BookingAnswer, catalogue: Catalogue): Response {
  if (answer.kind === 'received') {
    return new Response(null, { status: 303, headers: { ...noStore, Location: thankYouPath } });
  }
  const contact = escapeHtml(catalogue.site.contactEmail);
  const trip = catalogue.trips.find((t) => t.trip.slug === answer.tripSlug);
  const back = trip ? `<a href="${escapeHtml(trip.path)}#enquiry-form">Back to ${escapeHtml(trip.trip.name)}</a>` : '<a href="/">Back to the trips</a>';
  const fields = answer.fields && answer.fields.length > 0 ? `<ul>${answer.fields.map((f) => `<li>${escapeHtml(f.message)}</li>`).join('')}</ul>` : '';
  const title = answer.saved ? 'Your enquiry is saved but not sent yet' : 'Your enquiry was not sent';
  const paragraphs = answer.saved
    ? [escapeHtml(savedNote(answer.saved)), `If it is urgent, write to <a href="mailto:${contact}">${contact}</a>.`]
    : [escapeHtml(answer.message), `Questions? Write to <a href="mailto:${contact}">${contact}</a>.`];
  const body = page(title, paragraphs, `${fields}<p>${back}</p>`);
  return new Response(body, {
    status: bookingErrorStatus[answer.code],
    headers: { ...noStore, 'Content-Type': 'text/html; charset=utf-8', ...answer.headers },
  });
}
