/**
 * The answers of POST /api/bookings, in two forms: JSON for scripts and the enhanced form, and
 * for the plain HTML form (no JavaScript) a 303 to the enquiry's thank-you page on success, or a
 * page in the site's frame that says what went wrong once and shows the form again with what
 * the person typed and each problem next to its field.
 */
import { z } from 'astro/zod';
import { tripBySlug, type Catalogue, type TripPage } from '../../domain/catalogue/index.ts';
import { formatIndiaClock } from '../../domain/format.ts';
import { html, type SafeHtml } from '../../domain/html.ts';
import { enquiryFields, honeypotField, thankYouPath, type FieldError } from './enquiry.ts';
import { enquiryFormHtml, formFieldLabels, isFormField, newFormToken } from './form-html.ts';
import { enquiryIdPattern, type StoredEnquiry } from './store.ts';
import { cachePolicy } from '../http/cache-policy.ts';

/** The thank-you page of one enquiry; its reference is the only thing in the address. */
function thankYouHref(enquiry: Pick<StoredEnquiry, 'id'>): string {
  return `${thankYouPath}?ref=${encodeURIComponent(enquiry.id)}`;
}

/** Writes a live page into the site's frame (service/functions/page-shell.ts on the hosts). */
export type PageWriter = (page: {
  title: string;
  description: string;
  canonicalPath: string;
  noindex: true;
  main: SafeHtml;
}) => string;

export type BookingErrorCode =
  | 'invalid_enquiry'
  | 'cross_site_form'
  | 'method_not_allowed'
  | 'rate_limited'
  | 'storage_error'
  | 'delivery_failed'
  | 'enquiries_unavailable'
  | 'delivery_unavailable'
  | 'invalid_idempotency_key'
  | 'idempotency_key_reused'
  | 'enquiry_in_progress';

export const bookingErrorStatus: Record<BookingErrorCode, number> = {
  invalid_enquiry: 400,
  cross_site_form: 403,
  method_not_allowed: 405,
  rate_limited: 429,
  storage_error: 502,
  delivery_failed: 502,
  enquiries_unavailable: 503,
  delivery_unavailable: 503,
  invalid_idempotency_key: 400,
  idempotency_key_reused: 422,
  enquiry_in_progress: 409,
};

/** The JSON bodies, as schemas: `jsonAnswer` writes them, the OpenAPI document and the MCP tool describe them. */
const reference = z
  .string()
  .regex(enquiryIdPattern)
  .describe("The enquiry's reference: quote it to the team; the person's page of it is /enquiry-sent?ref=<reference>.");

export const enquiryReceivedBody = z.object({
  enquiry: z.object({ id: reference, status: z.literal('received'), tripSlug: z.string() }),
  callbackPromise: z
    .string()
    .nullable()
    .describe(
      'When a guide calls back, as the site promises it ("within one working day, …"); null when none is published.',
    ),
  next: z
    .string()
    .describe(
      'What happens next, in a sentence to pass on to the person: a guide calls to confirm seats and dates; nothing is booked until then.',
    ),
});

const fieldName = z.enum([...enquiryFields, honeypotField]);

export const bookingErrorBody = z.object({
  error: z.object({
    code: z
      .enum(Object.keys(bookingErrorStatus) as [BookingErrorCode, ...BookingErrorCode[]])
      .describe('Stable code; branch on it, not on the message.'),
    message: z.string().describe('What went wrong and what to do, in plain language.'),
    field: fieldName.optional().describe('The first field refused (400 `invalid_enquiry` only).'),
    fields: z
      .array(z.object({ field: fieldName, message: z.string() }))
      .optional()
      .describe('Every field refused, one message each, in the order the form shows them.'),
  }),
  enquiry: z
    .object({ id: reference, status: z.literal('saved'), tripSlug: z.string() })
    .optional()
    .describe(
      'Present when the enquiry was kept but could not be delivered yet: it is sent later, so it must not be sent again.',
    ),
  next: z.string().optional(),
});

export type BookingAnswer =
  | { kind: 'received'; enquiry: StoredEnquiry }
  /** Its Idempotency-Key (or form token) took this enquiry a moment ago and its first answer is still being made. */
  | { kind: 'in_progress'; enquiry: StoredEnquiry }
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
      /** What was submitted, to show the plain form again with it. */
      values?: Record<string, unknown> | undefined;
      /** When the address may send again (429): the page gives it as a `<time>`. */
      retryAt?: Date | undefined;
      headers?: Record<string, string>;
    };

/** What the person is told when the enquiry could not be taken or passed on, wherever it came from. */
export const refusals = {
  enquiriesOff: (contact: string) =>
    `Online enquiries are switched off on this site, so yours could not be kept. Please write to ${contact} or call us instead.`,
  notStored: (contact: string) =>
    `We could not save your enquiry just now. Please try again in a few minutes, or write to ${contact}.`,
  tooMany: (policy: { requests: number; windowSeconds: number }, when: string, contact: string) =>
    `Too many enquiries from your connection: at most ${policy.requests} every ${policy.windowSeconds / 60} minutes. You can send again ${when}, or write to ${contact}.`,
  formSentBefore: () =>
    'This form was already sent, with other details, and that enquiry reached us. To send another enquiry, open the trip page again and fill in its form.',
  inProgress: () =>
    'An enquiry with this Idempotency-Key is being taken right now. Send the same request again in a second for its answer; it will not be taken twice.',
  notDelivered: (enquiry: Pick<StoredEnquiry, 'id'>, contact: string) =>
    `Your enquiry is saved (reference ${enquiry.id}) but could not be passed to our team just now. It will be sent as soon as mail works again; for anything urgent write to ${contact}.`,
};

/**
 * When an address over its quota may send again, for a person: the clock time in India (the
 * operator's, and the one the site's other times are given in) and the wait, so the sentence
 * stays true read at once or a few minutes later. The time is rounded up to the minute.
 */
export function retryWhen(now: Date, seconds: number): { at: Date; words: string } {
  const at = new Date(Math.ceil((now.getTime() + seconds * 1000) / 60_000) * 60_000);
  const minutes = Math.ceil(seconds / 60);
  const wait =
    seconds < 60 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return { at, words: `in ${wait} (at ${formatIndiaClock(at)})` };
}

/** "A guide will call you on <phone> <promise>": when, as the site promised it. */
export function callBackSentence(enquiry: Pick<StoredEnquiry, 'callbackPromise'>, on = ''): string {
  return `A guide will call you${on ? ` on ${on}` : ''}${enquiry.callbackPromise ? ` ${enquiry.callbackPromise},` : ''} to confirm seats and dates. Nothing is booked until then.`;
}

/** "Fixture Trek for 5 Jun 2027 to 9 Jun 2027": what the enquiry is about, as the person sent it. */
function enquiryAbout(enquiry: Pick<StoredEnquiry, 'trip' | 'preferredDeparture'>): string {
  return enquiry.preferredDeparture ? `${enquiry.trip.name} for ${enquiry.preferredDeparture}` : enquiry.trip.name;
}

function nextStep(enquiry: StoredEnquiry): string {
  return `Thank you, ${enquiry.name}. Your enquiry about ${enquiryAbout(enquiry)} reached our team; its reference is ${enquiry.id}. ${callBackSentence(enquiry, enquiry.phone)}`;
}

function savedNote(enquiry: StoredEnquiry): string {
  return `Your enquiry about ${enquiryAbout(enquiry)} is saved (reference ${enquiry.id}) and will be passed to the team as soon as mail works again; you do not need to send it again.`;
}

const noStore = { 'Cache-Control': cachePolicy.never };
const json = { ...noStore, 'Content-Type': 'application/json; charset=utf-8' };

/** An answer other than received, as the error it is to a client (one still in progress: ask again in a second). */
export function refusalOf(
  answer: Exclude<BookingAnswer, { kind: 'received' }>,
): Extract<BookingAnswer, { kind: 'error' }> {
  if (answer.kind === 'error') return answer;
  return {
    kind: 'error',
    code: 'enquiry_in_progress',
    message: refusals.inProgress(),
    headers: { 'Retry-After': '1' },
  };
}

export function jsonAnswer(answer: BookingAnswer): Response {
  if (answer.kind === 'received') {
    const { enquiry } = answer;
    return Response.json(receivedBody(enquiry), { status: 201, headers: json });
  }
  const refusal = refusalOf(answer);
  return Response.json(errorBody(refusal), {
    status: bookingErrorStatus[refusal.code],
    headers: { ...json, ...refusal.headers },
  });
}

export function receivedBody(enquiry: StoredEnquiry): z.infer<typeof enquiryReceivedBody> {
  return {
    enquiry: { id: enquiry.id, status: 'received', tripSlug: enquiry.tripSlug },
    callbackPromise: enquiry.callbackPromise,
    next: nextStep(enquiry),
  };
}

export function errorBody(answer: Extract<BookingAnswer, { kind: 'error' }>): z.infer<typeof bookingErrorBody> {
  const first = answer.fields?.[0];
  return {
    error: {
      code: answer.code,
      message: answer.message,
      ...(first ? { field: first.field } : {}),
      ...(answer.fields && answer.fields.length > 0 ? { fields: answer.fields } : {}),
    },
    ...(answer.saved
      ? {
          enquiry: { id: answer.saved.id, status: 'saved', tripSlug: answer.saved.tripSlug },
          next: savedNote(answer.saved),
        }
      : {}),
  };
}

function contactLine(catalogue: Catalogue, lead: string): SafeHtml {
  const email = catalogue.site.contactEmail;
  return html`<p>${lead} <a href="${`mailto:${email}`}">${email}</a>.</p>`;
}

function backLink(trip: TripPage | undefined): SafeHtml {
  return trip
    ? html`<p><a href="${`${trip.path}#enquiry-form`}">Back to ${trip.trip.name}</a></p>`
    : html`<p><a href="/treks">Back to the treks</a> · <a href="/expeditions">the expeditions</a></p>`;
}

/** Says once what to fix: the fields by name (each message is next to its field below), and any problem that has no field to show. */
function problemSummary(errors: readonly FieldError[]): SafeHtml {
  const shown = errors.filter((e) => isFormField(e.field));
  const unshown = errors.filter((e) => !isFormField(e.field));
  const links = shown.map(
    (e, i) =>
      html`${i > 0 ? ', ' : ''}<a href="${`#enquiry-${e.field}`}">${isFormField(e.field) ? formFieldLabels[e.field] : e.field}</a>`,
  );
  const count = shown.length === 1 ? 'One field needs' : `${shown.length} fields need`;
  return html`<div class="notice enquiry-problems">
${shown.length > 0 ? html`<p>${count} another look: ${links}. Everything you typed is still in the form below.</p>` : ''}
${unshown.map((e) => html`<p>${e.message}</p>`)}
</div>`;
}

/**
 * Over the quota: the message, its time of day as a machine-readable `<time>`, what became of
 * what was typed, and the way back to the trip's own form.
 */
function retrySummary(
  answer: Extract<BookingAnswer, { kind: 'error' }>,
  trip: TripPage | undefined,
  withForm: boolean,
): SafeHtml {
  const at = answer.retryAt!;
  const clock = formatIndiaClock(at);
  const [before, ...after] = answer.message.split(clock);
  const message =
    after.length > 0
      ? html`${before}<time datetime="${at.toISOString()}">${clock}</time>${after.join(clock)}`
      : answer.message;
  const back = trip ? html`<a href="${`${trip.path}#enquiry-form`}">the form on the ${trip.trip.name} page</a>` : null;
  return html`<div class="notice enquiry-problems">
<p>${message}</p>
${withForm ? html`<p>Everything you typed is still in the form below, ready to send then.${back ? html` Or go back to ${back}.` : ''}</p>` : back ? html`<p>Go back to ${back} to send it then.</p>` : ''}
</div>`;
}

function errorMain(
  answer: Extract<BookingAnswer, { kind: 'error' }>,
  catalogue: Catalogue,
  trip: TripPage | undefined,
): { title: string; main: SafeHtml } {
  if (answer.saved) {
    const title = 'Your enquiry is saved but not sent yet';
    return {
      title,
      main: html`<h1>${title}</h1>
<p class="lead">${savedNote(answer.saved)}</p>
<p>Its page: <a href="${thankYouHref(answer.saved)}">enquiry ${answer.saved.id}</a>.</p>
${contactLine(catalogue, 'If it is urgent, write to')}
${backLink(trip)}`,
    };
  }
  const title = 'Your enquiry was not sent';
  const fields = answer.fields ?? [];
  // The form again, unless the post came from another site (nothing of it is shown back) or could not be read.
  const form =
    trip && answer.values && answer.code !== 'cross_site_form'
      ? enquiryFormHtml({
          trip: trip.trip,
          headingLevel: 2,
          values: answer.values,
          errors: fields,
          token: newFormToken(),
        })
      : null;
  const summary =
    fields.length > 0
      ? problemSummary(fields)
      : answer.retryAt
        ? retrySummary(answer, trip, form !== null)
        : html`<div class="notice enquiry-problems"><p>${answer.message}</p>${form ? html`<p>Everything you typed is still in the form below.</p>` : ''}</div>`;
  return {
    title,
    main: html`<h1>${title}</h1>
${summary}
${form ?? ''}
${contactLine(catalogue, 'Questions? Write to')}
${backLink(trip)}`,
  };
}

export function htmlAnswer(answer: BookingAnswer, catalogue: Catalogue, page: PageWriter): Response {
  // Taken, or being taken by the same form sent a moment before: its page says how it stands.
  if (answer.kind === 'received' || answer.kind === 'in_progress') {
    return new Response(null, { status: 303, headers: { ...noStore, Location: thankYouHref(answer.enquiry) } });
  }
  const trip = tripBySlug(catalogue, answer.tripSlug);
  const { title, main } = errorMain(answer, catalogue, trip);
  const body = page({
    title,
    description: trip ? `${title}: ${trip.trip.name}.` : `${title}.`,
    canonicalPath: trip?.path ?? '/',
    noindex: true,
    main,
  });
  return new Response(body, {
    status: bookingErrorStatus[answer.code],
    headers: { ...noStore, 'Content-Type': 'text/html; charset=utf-8', ...answer.headers },
  });
}
