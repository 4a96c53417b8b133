/**
 * POST /api/bookings: a visitor's booking enquiry. Refused when a page of another site sent it
 * (service/http/browser-site.ts); a request sent again under the same key (Idempotency-Key, the
 * form's one-time token, a plain form's own fields) gets the first answer (idempotency.ts);
 * otherwise counted per client IP (5 per 10 minutes, separately from /v1), checked, stored with
 * its key, then emailed to the team. The enquiry is stored before delivery, so when mail fails it
 * stays stored and `npm run enquiries -- retry` delivers it later. Seats are confirmed by a guide
 * who calls back, never by this endpoint.
 */
import { tripBySlug, type Catalogue } from '../../domain/catalogue/index.ts';
import type { Departure } from '../../domain/schemas/departure.ts';
import { readLiveDepartures } from '../departures/live.ts';
import type { DepartureSource } from '../departures/source.ts';
import { bookingRateLimit } from '../rules/policy.ts';
import type { RateLimiter } from '../rules/rate-limiter.ts';
import { bodyFormat, readEnquiryBody, type BodyFormat } from './body.ts';
import { deliverEnquiry } from './deliver.ts';
import { cleanText, formTokenField } from './enquiry.ts';
import { checkEnquiry } from './enquiry-schema.ts';
import { answerAgain, idempotencyKeyHeader, keyLifetimeMs, readIdempotencyKey, requestKey } from './idempotency.ts';
import type { Mailer } from './mailer.ts';
import { htmlAnswer, jsonAnswer, refusals, retryWhen, type BookingAnswer, type PageWriter } from './responses.ts';
import type { EnquiryStore, FirstAnswer, KeptRequest, KeyedRequest, StoredEnquiry } from './store.ts';
import { clientQuotaKey } from '../rules/client-ip.ts';
import { senderOf } from '../http/browser-site.ts';

/** What taking an enquiry needs, wherever it comes from (the endpoint, the MCP tool). */
export interface EnquiryDeps {
  catalogue: Catalogue;
  /** Null when OPERATIONAL_STORAGE=off: enquiries cannot be kept, so none is taken. */
  enquiries: EnquiryStore | null;
  mailer: Mailer;
  /** The per-IP enquiry limit, or null when counting is switched off. */
  limiter: RateLimiter | null;
  /** The departures in operational storage, read when an enquiry names one (its seats); null when storage is off. */
  departures: DepartureSource | null;
  clock: () => Date;
}

export interface BookingDeps extends EnquiryDeps {
  /** Writes the answer pages of the plain HTML form into the site's frame. */
  page: PageWriter;
}

export interface BookingRequestContext {
  /** Who is asking, as the host determined it (socket address or trusted proxy header). */
  clientIp: string;
  /** The request's Idempotency-Key header as sent (the MCP tool's is the POST to /mcp's), or null. */
  idempotencyKey?: string | null | undefined;
}

let limiterFailureLoggedAt = 0;

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function handleBookingEnquiry(
  request: Request,
  deps: BookingDeps,
  context: BookingRequestContext,
): Promise<Response> {
  if (request.method !== 'POST') {
    return jsonAnswer({
      kind: 'error',
      code: 'method_not_allowed',
      message: 'Send a booking enquiry with POST.',
      headers: { Allow: 'POST' },
    });
  }
  // The plain HTML form (no JavaScript) posts URL-encoded fields and gets an HTML answer.
  const format = bodyFormat(request.headers.get('Content-Type'));
  const answer = await answerEnquiry(request, format, deps, {
    ...context,
    idempotencyKey: request.headers.get(idempotencyKeyHeader),
  });
  return format === 'form' ? htmlAnswer(answer, deps.catalogue, deps.page) : jsonAnswer(answer);
}

async function answerEnquiry(
  request: Request,
  format: BodyFormat | null,
  deps: BookingDeps,
  context: BookingRequestContext,
): Promise<BookingAnswer> {
  // A page of another site (or of a name rebound to this server) is refused whatever it sends,
  // and before counting: a refusal a third party can cause must not spend the visitor's quota.
  if (senderOf(request, deps.catalogue.siteUrl) === 'another-site') {
    return { kind: 'error', code: 'cross_site_form', message: 'This form can only be sent from our own trip pages.' };
  }
  const body = await readEnquiryBody(request);
  if (!body.ok)
    return (await countEnquiry(deps, context)) ?? { kind: 'error', code: 'invalid_enquiry', message: body.message };
  const answer = await takeFields(body.fields, deps, context, format === 'form');
  if (format !== 'form' || answer.kind !== 'error') return answer;
  const tripSlug = typeof body.fields.tripSlug === 'string' ? body.fields.tripSlug : undefined;
  // A plain form refused over the quota comes back with what the person typed and the trip it
  // was about, so its page shows the form again and leads back to the trip's.
  if (answer.code === 'rate_limited') return { ...answer, tripSlug, values: body.fields };
  // Its token already took an enquiry with other details (changed after a send that seemed to fail).
  if (answer.code === 'idempotency_key_reused') return { ...answer, tripSlug, message: refusals.formSentBefore() };
  return answer;
}

/**
 * An enquiry sent for a person by an agent (the MCP tool): the same key, count against the
 * sender's address, checks, store and delivery as a POST, and the same answers.
 */
export function takeEnquiry(
  fields: Record<string, unknown>,
  deps: EnquiryDeps,
  context: BookingRequestContext,
): Promise<BookingAnswer> {
  return takeFields(fields, deps, context, false);
}

/**
 * The enquiry's fields, read: a request sent again under a key already kept is answered as the
 * first was and is not counted (it takes nothing new); any other is counted, then checked,
 * stored and delivered.
 */
async function takeFields(
  fields: Record<string, unknown>,
  deps: EnquiryDeps,
  context: BookingRequestContext,
  plainForm: boolean,
): Promise<BookingAnswer> {
  const clientKey = readIdempotencyKey(
    context.idempotencyKey ?? (typeof fields[formTokenField] === 'string' ? fields[formTokenField] || null : null),
  );
  if (!clientKey.ok) return { kind: 'error', code: 'invalid_idempotency_key', message: clientKey.message };
  const key = requestKey(fields, clientKey.key, plainForm);
  const keyed = key && { ...key, keptSince: new Date(deps.clock().getTime() - keyLifetimeMs) };
  if (keyed && deps.enquiries) {
    const again = await answeredBefore(keyed, deps);
    if (again) return again;
  }
  return (await countEnquiry(deps, context)) ?? acceptEnquiry(fields, deps, keyed);
}

/**
 * The first answer again when the key is kept; null when it is not, or storage cannot say now:
 * the store decides again when it keeps the enquiry, so a race or a failed look is never a
 * second enquiry.
 */
async function answeredBefore(keyed: KeyedRequest, deps: EnquiryDeps): Promise<BookingAnswer | null> {
  let kept: KeptRequest | null;
  try {
    kept = await deps.enquiries!.keptRequest(keyed);
  } catch {
    return null;
  }
  return kept && answered(kept, keyed, deps);
}

/** The answer to a request whose key is kept; an enquiry whose first request was cut short is delivered now. */
function answered(kept: KeptRequest, keyed: KeyedRequest, deps: EnquiryDeps): Promise<BookingAnswer> | BookingAnswer {
  const again = answerAgain(kept, keyed.fingerprint, deps.clock(), deps.catalogue.site.contactEmail);
  return again.kind === 'cut_short' ? deliverAndAnswer(again.enquiry, keyed, deps, again.enquiry.tripSlug) : again;
}

/** Counts one enquiry against the client's quota: the refusal once it is used up, else null. */
async function countEnquiry(deps: EnquiryDeps, context: BookingRequestContext): Promise<BookingAnswer | null> {
  const contact = deps.catalogue.site.contactEmail;
  if (deps.limiter) {
    try {
      const decision = await deps.limiter(clientQuotaKey(context.clientIp));
      if (!decision.allowed) {
        const retry = retryWhen(deps.clock(), decision.resetSeconds);
        return {
          kind: 'error',
          code: 'rate_limited',
          message: refusals.tooMany(bookingRateLimit, retry.words, contact),
          retryAt: retry.at,
          headers: { 'Retry-After': String(decision.resetSeconds) },
        };
      }
    } catch (error) {
      // Fail open: a broken counter store must not turn visitors away.
      if (Date.now() - limiterFailureLoggedAt > 60_000) {
        limiterFailureLoggedAt = Date.now();
        console.error(`[enquiries] rate-limit counters unavailable, not limiting: ${errorMessage(error)}`);
      }
    }
  }
  return null;
}

/**
 * The trip's departures as storage has them now, when the enquiry names dates: the seats check
 * reads them at submission, never from a page. None when storage is off or cannot be read in
 * time: the enquiry is taken anyway, and a guide confirms seats when calling back.
 */
async function departuresNamed(values: Record<string, unknown>, deps: EnquiryDeps): Promise<Departure[]> {
  const slug = typeof values.tripSlug === 'string' ? cleanText(values.tripSlug) : '';
  const dates = typeof values.preferredDeparture === 'string' ? cleanText(values.preferredDeparture) : '';
  if (!deps.departures || dates === '' || !tripBySlug(deps.catalogue, slug)) return [];
  const live = await readLiveDepartures(deps.departures, deps.catalogue, { tripSlug: slug });
  return live.state === 'live' ? live.departures : [];
}

/** Checks, stores (under the request's key, when it has one) and delivers an enquiry that the quota let through. */
async function acceptEnquiry(
  values: Record<string, unknown>,
  deps: EnquiryDeps,
  keyed: KeyedRequest | null,
): Promise<BookingAnswer> {
  const contact = deps.catalogue.site.contactEmail;
  const check = checkEnquiry(values, deps.catalogue, await departuresNamed(values, deps), deps.clock());
  const tripSlug = typeof values.tripSlug === 'string' ? values.tripSlug : undefined;
  if (!check.ok) {
    const [first] = check.errors;
    const message =
      check.errors.length === 1 && first
        ? first.message
        : `${check.errors.length} fields need another look. ${first?.message ?? ''}`.trim();
    return { kind: 'error', code: 'invalid_enquiry', message, fields: check.errors, tripSlug, values };
  }

  if (!deps.enquiries) {
    return {
      kind: 'error',
      code: 'enquiries_unavailable',
      message: refusals.enquiriesOff(contact),
      tripSlug,
      values,
    };
  }
  const page = tripBySlug(deps.catalogue, check.enquiry.tripSlug);
  let stored: StoredEnquiry;
  try {
    const trip = { name: page?.trip.name ?? check.enquiry.tripSlug, url: page?.trip.url ?? deps.catalogue.siteUrl };
    const context = { trip, callbackPromise: deps.catalogue.site.callbackPromise };
    if (keyed) {
      const outcome = await deps.enquiries.addOnce(check.enquiry, context, deps.clock(), keyed);
      // Taken a moment ago under the same key, by a request sent at the same time (another instance, a double click).
      if ('kept' in outcome) return answered(outcome.kept, keyed, deps);
      stored = outcome.taken;
    } else {
      stored = await deps.enquiries.add(check.enquiry, context, deps.clock());
    }
  } catch (error) {
    console.error(`[enquiries] could not store an enquiry: ${errorMessage(error)}`);
    return {
      kind: 'error',
      code: 'storage_error',
      message: refusals.notStored(contact),
      tripSlug,
      values,
    };
  }

  return deliverAndAnswer(stored, keyed, deps, tripSlug);
}

/** Delivers a kept enquiry, notes the answer under the request's key (when it has one) and gives it. */
async function deliverAndAnswer(
  stored: StoredEnquiry,
  keyed: KeyedRequest | null,
  deps: EnquiryDeps,
  tripSlug: string | undefined,
): Promise<BookingAnswer> {
  const outcome = await deliverEnquiry(stored.id, {
    enquiries: deps.enquiries!,
    mailer: deps.mailer,
    clock: deps.clock,
  }).catch((error: unknown) => {
    // Storage failed between keeping the enquiry and sending it: it stays pending for `retry --all`.
    console.error(`[enquiries] ${stored.id} stored but not attempted: ${errorMessage(error)}`);
    return { state: 'failed', reason: 'upstream' } as const;
  });
  // Skipped: delivered already (by a request sent at the same time, or the team's retry).
  const answer: BookingAnswer =
    outcome.state === 'failed'
      ? {
          kind: 'error',
          code: outcome.reason === 'unavailable' ? 'delivery_unavailable' : 'delivery_failed',
          message: refusals.notDelivered(stored, deps.catalogue.site.contactEmail),
          saved: stored,
          tripSlug,
        }
      : { kind: 'received', enquiry: stored };
  if (keyed) await recordFirstAnswer(keyed, answer, deps);
  return answer;
}

/** Notes the answer under the request's key; when storage cannot, a request sent again later is answered from the enquiry itself. */
async function recordFirstAnswer(keyed: KeyedRequest, answer: BookingAnswer, deps: EnquiryDeps): Promise<void> {
  const first: FirstAnswer | null =
    answer.kind === 'received'
      ? 'received'
      : answer.kind === 'error' && (answer.code === 'delivery_failed' || answer.code === 'delivery_unavailable')
        ? answer.code
        : null;
  if (!first) return;
  await deps.enquiries!.recordAnswer(keyed.key, first).catch((error: unknown) => {
    console.error(`[enquiries] the answer to a keyed request could not be noted: ${errorMessage(error)}`);
  });
}
