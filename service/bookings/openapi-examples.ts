/**
 * Examples for the enquiry endpoint's OpenAPI document, taken from the endpoint itself: the
 * refusals are what `handleBookingEnquiry` answers to real requests (bad fields, a used-up
 * quota, enquiries switched off); the answers that need a stored enquiry are written by the
 * same response writer and messages from one example enquiry, dated from the dataset's last
 * update so the document is the same on every build.
 */
import { tripBySlug, type Catalogue } from '../../domain/catalogue/index.ts';
import { bookingRateLimit } from '../rules/policy.ts';
import { createRateLimiter, type CounterStore } from '../rules/rate-limiter.ts';
import { checkEnquiry } from './enquiry-schema.ts';
import { handleBookingEnquiry, type BookingDeps } from './index.ts';
import type { Mailer } from './mailer.ts';
import { idempotencyKeyHeader, keyRefusals, maxKeyLength } from './idempotency.ts';
import { jsonAnswer, refusals, type BookingErrorCode } from './responses.ts';
import type { StoredEnquiry } from './store.ts';

export interface Example {
  summary: string;
  value: unknown;
}

/** A person's enquiry as an agent would send it with their consent: the required fields, then all of them. */
export function requestExamples(catalogue: Catalogue): Record<string, Example> {
  const trip = catalogue.trips[0]?.trip;
  const slug = trip?.slug ?? 'a-trip';
  const minimal = { tripSlug: slug, name: 'Asha Rao', phone: '+91 98765 43210', groupSize: 2 };
  return {
    minimal: { summary: 'The required fields', value: minimal },
    full: {
      summary: 'With an email address, the dates wanted and a question',
      value: {
        ...minimal,
        email: 'asha.rao@example.com',
        preferredDeparture: 'October 2027',
        message: 'Two of us are vegetarian. Is a rest day possible?',
      },
    },
  };
}

/** Mail is never reached by these examples: every one is answered before delivery. */
const noMail: Mailer = {
  description: 'none (examples)',
  send: () => Promise.reject(new Error('the examples never deliver')),
};

/** A counter store that reports the enquiry quota as used up. */
const exhausted: CounterStore = { hit: async () => ({ count: bookingRateLimit.requests + 1, resetMs: 7 * 60_000 }) };

function deps(catalogue: Catalogue, overrides: Partial<BookingDeps> = {}): BookingDeps {
  return {
    catalogue,
    enquiries: null,
    mailer: noMail,
    limiter: null,
    departures: null,
    clock: () => new Date(`${catalogue.site.dataset.lastUpdated}T04:30:00Z`),
    page: () => '',
    ...overrides,
  };
}

async function answer(
  catalogue: Catalogue,
  body: unknown,
  overrides: Partial<BookingDeps> = {},
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const request = new Request(`${catalogue.siteUrl}/api/bookings`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const response = await handleBookingEnquiry(request, deps(catalogue, overrides), { clientIp: '203.0.113.7' });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

/** The enquiry of the examples as the store keeps it, under a fixed reference. */
function exampleEnquiry(catalogue: Catalogue): StoredEnquiry {
  const check = checkEnquiry(requestExamples(catalogue).minimal!.value as Record<string, unknown>, catalogue);
  if (!check.ok) throw new Error(`the example enquiry is refused: ${JSON.stringify(check.errors)}`);
  const page = tripBySlug(catalogue, check.enquiry.tripSlug)!;
  const day = catalogue.site.dataset.lastUpdated;
  return {
    ...check.enquiry,
    id: `enq-${day.replaceAll('-', '')}-k3v9x2m7qa`,
    trip: { name: page.trip.name, url: page.trip.url },
    callbackPromise: catalogue.site.callbackPromise ?? null,
    createdAt: new Date(`${day}T04:30:00Z`),
    deliveryState: 'delivered',
    attempts: 1,
    lastAttemptAt: null,
    lastError: null,
    deliveredAt: null,
    deliveryRef: null,
    idempotencyKey: `enquiry/enq-${day.replaceAll('-', '')}-k3v9x2m7qa`,
    handledAt: null,
    handledNote: null,
  };
}

export async function receivedExample(catalogue: Catalogue): Promise<Example> {
  return {
    summary: 'Received: the team has it and a guide calls back',
    value: await jsonAnswer({ kind: 'received', enquiry: exampleEnquiry(catalogue) }).json(),
  };
}

/** Refusals of single fields, and of a body that is not an enquiry at all. */
export async function invalidExamples(catalogue: Catalogue): Promise<Record<string, Example>> {
  const valid = requestExamples(catalogue).minimal!.value as Record<string, unknown>;
  const cases: [string, string, unknown][] = [
    ['missing_name', 'No name', { ...valid, name: undefined }],
    ['phone', 'A phone number that is not one', { ...valid, phone: 'call me' }],
    ['group_size', "More people than the trip's group-size cap", { ...valid, groupSize: 40 }],
    ['unknown_trip', 'A trip that is not published', { ...valid, tripSlug: 'no-such-trip' }],
    [
      'several_fields',
      'Several fields at once: each is named',
      { tripSlug: valid.tripSlug, phone: '12345', groupSize: 0 },
    ],
    ['not_json', 'A body that is not JSON', '{"tripSlug": '],
  ];
  const examples: Record<string, Example> = {};
  for (const [key, summary, body] of cases) examples[key] = { summary, value: (await answer(catalogue, body)).body };
  return examples;
}

export async function rateLimitedExample(catalogue: Catalogue): Promise<{ example: Example; retryAfter: string }> {
  const limited = await answer(catalogue, requestExamples(catalogue).minimal!.value, {
    limiter: createRateLimiter(bookingRateLimit, exhausted),
  });
  if (limited.status !== 429) throw new Error(`an exhausted enquiry quota answered ${limited.status}`);
  return {
    example: { summary: 'The enquiry quota of this address is used up', value: limited.body },
    retryAfter: limited.headers.get('Retry-After') ?? '',
  };
}

/** 502 and 503: kept but not delivered (the reference is in the answer), or not taken at all. */
export async function failureExamples(catalogue: Catalogue): Promise<Record<502 | 503, Record<string, Example>>> {
  const contact = catalogue.site.contactEmail;
  const saved = exampleEnquiry(catalogue);
  const error = async (code: BookingErrorCode, message: string, withSaved: boolean): Promise<unknown> =>
    jsonAnswer({
      kind: 'error',
      code,
      message,
      ...(withSaved ? { saved: { ...saved, deliveryState: 'failed' as const } } : {}),
    }).json();
  const off = await answer(catalogue, requestExamples(catalogue).minimal!.value);
  return {
    502: {
      storage_error: {
        summary: 'The enquiry could not be stored: nothing was kept, send it again later',
        value: await error('storage_error', refusals.notStored(contact), false),
      },
      delivery_failed: {
        summary: 'Stored, but mail failed: it is sent later, do not send it again',
        value: await error('delivery_failed', refusals.notDelivered(saved, contact), true),
      },
    },
    503: {
      enquiries_unavailable: { summary: 'This deployment takes no online enquiries', value: off.body },
      delivery_unavailable: {
        summary: 'Stored, but mail is not set up: it is sent later, do not send it again',
        value: await error('delivery_unavailable', refusals.notDelivered(saved, contact), true),
      },
    },
  };
}

/** The answers about an Idempotency-Key: a key refused by the endpoint, one used for other details, one still being answered. */
export async function idempotencyExamples(
  catalogue: Catalogue,
): Promise<{ invalid: Example; reused: Example; inProgress: Example }> {
  const valid = requestExamples(catalogue).minimal!.value;
  const invalid = await answer(catalogue, valid, {}, { [idempotencyKeyHeader]: `"${'k'.repeat(maxKeyLength + 1)}"` });
  if (invalid.status !== 400) throw new Error(`an over-long Idempotency-Key answered ${invalid.status}`);
  return {
    invalid: { summary: 'An Idempotency-Key that is too long', value: invalid.body },
    reused: {
      summary: 'The key was used for an enquiry with other details',
      value: await jsonAnswer({ kind: 'error', code: 'idempotency_key_reused', message: keyRefusals.reused }).json(),
    },
    inProgress: {
      summary: 'The first request with this key is still being answered',
      value: await jsonAnswer({ kind: 'in_progress', enquiry: exampleEnquiry(catalogue) }).json(),
    },
  };
}
