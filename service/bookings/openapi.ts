/**
 * The OpenAPI 3.1 document of POST /api/bookings, which the contract keeps outside the /v1 API:
 * the request body is the Zod schema the endpoint validates with (enquiry-schema.ts), as JSON and
 * as the trip pages' web form posts it (openapi-form.ts); the answers are the schemas its
 * response writer follows (responses.ts), JSON to a JSON body and HTML pages (or a redirect) to
 * the form; the limits come from the rate-limit policy and the bounds, and the examples from the
 * endpoint itself. Served as /enquiry-openapi.json (`enquiryOpenApiPath` in service/site-files.ts).
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { jsonSchemaComponents } from '../http/json-schema.ts';
import { bookingRateLimit } from '../rules/policy.ts';
import { enquiryRequestSchema } from './enquiry-schema.ts';
import { maxBodyBytes } from './body.ts';
import {
  failureExamples,
  idempotencyExamples,
  invalidExamples,
  rateLimitedExample,
  receivedExample,
  requestExamples,
} from './openapi-examples.ts';
import { formRequestSchema } from './openapi-form.ts';
import { idempotencyKeyHeader, keyLifetimeMs, maxKeyLength } from './idempotency.ts';
import { thankYouPath } from './enquiry.ts';
import { bookingErrorBody, enquiryReceivedBody, type BookingErrorCode } from './responses.ts';
import { cachePolicy } from '../http/cache-policy.ts';

type Json = Record<string, unknown>;

const enquiryOperationId = 'sendEnquiry';

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The answer to the web form: a page of the site, in its frame, saying what went wrong and showing the form again. */
const htmlPage = (what: string) => ({
  'text/html': { schema: { type: 'string', description: `An HTML page of the site: ${what}` } },
});

/**
 * The error body narrowed to the codes one status carries, as JSON (to a JSON body) and, where
 * the web form can meet it, as a page (`html`).
 */
function errorResponse(
  description: string,
  codes: BookingErrorCode[],
  examples: Record<string, unknown>,
  options: { headers?: Json; html?: string } = {},
): Json {
  return {
    description,
    headers: { 'Cache-Control': { $ref: '#/components/headers/CacheControl' }, ...options.headers },
    content: {
      'application/json': {
        schema: {
          allOf: [
            schemaRef('EnquiryError'),
            {
              type: 'object',
              properties: {
                error: { type: 'object', properties: { code: { enum: codes } }, additionalProperties: true },
              },
              additionalProperties: true,
            },
          ],
        },
        examples,
      },
      ...(options.html ? htmlPage(options.html) : {}),
    },
  };
}

function describeEndpoint(catalogue: Catalogue): string {
  const { site, siteUrl } = catalogue;
  return [
    `How a person asks ${site.operatorName}'s team about a trip: a booking enquiry. It books nothing. The team receives it by email and a guide calls the person back${site.callbackPromise ? ` ${site.callbackPromise}` : ''} to confirm seats and dates.`,
    '',
    `- **The person in charge.** Send an enquiry only for a person who asked for it, with their own name and phone number and their consent to share them; show them what you will send first. If they would rather send it themselves, give them the trip page's form (the trip's \`url\` plus \`#enquiry-form\`). Never send test enquiries: each one reaches the team.`,
    `- **One enquiry, one answer.** 201 means the team has it: pass on \`next\` and the reference \`enquiry.id\` (the person's page of it is ${siteUrl}${thankYouPath}?ref=<reference>). 400 names every refused field with a sentence to pass on. A 502 or 503 with an \`enquiry\` member means it was kept and will be delivered later: do not send it again.`,
    `- **Sent once.** Send an \`${idempotencyKeyHeader}\` header (a new UUID for each enquiry) and send the same request again, with the same key, whenever you did not get an answer: the enquiry is taken once and the first answer comes back, for ${keyLifetimeMs / 3_600_000} hours. The trip pages' form does the same with a one-time token.`,
    `- **Limit.** ${bookingRateLimit.requests} enquiries per ${bookingRateLimit.windowSeconds / 60} minutes per client address, counted whatever the answer (a request answered again under its key is not counted), apart from the /v1 quota; over it the answer is 429 with \`Retry-After\`, and no \`RateLimit-*\` headers.`,
    `- **Also as an MCP tool.** \`send_enquiry\` at ${siteUrl}/mcp takes the same fields, through the same checks, quota and delivery.`,
    '',
    `The read-only catalogue (trips, departures, peaks) is the /v1 API: ${siteUrl}/openapi.json.`,
  ].join('\n');
}

export async function buildEnquiryOpenApiDocument(catalogue: Catalogue): Promise<Json> {
  const { site, siteUrl } = catalogue;
  const limited = await rateLimitedExample(catalogue);
  const failures = await failureExamples(catalogue);
  const seconds = { type: 'integer', minimum: 1, maximum: bookingRateLimit.windowSeconds };
  const requestSchemas = jsonSchemaComponents({ EnquiryRequest: enquiryRequestSchema(catalogue) }, 'input');
  const once = await idempotencyExamples(catalogue);

  return {
    openapi: '3.1.0',
    info: {
      title: `${site.serviceName}: booking enquiries`,
      version: '1',
      description: describeEndpoint(catalogue),
      contact: { name: site.operatorName, email: site.contactEmail, url: `${siteUrl}/developers` },
      // The licence the site publishes its API descriptions and open data under, as /openapi.json.
      license: { name: site.dataset.license, identifier: site.dataset.license },
    },
    externalDocs: { description: 'Developer reference', url: `${siteUrl}/developers` },
    servers: [{ url: siteUrl, description: 'This deployment' }],
    // No key: the quota per address and the person's consent are what guard it.
    security: [],
    tags: [
      {
        name: 'Enquiries',
        description: 'Booking enquiries: a guide calls the person back; nothing is booked by the API.',
      },
    ],
    paths: {
      '/api/bookings': {
        post: {
          operationId: enquiryOperationId,
          tags: ['Enquiries'],
          summary: 'Send a booking enquiry for a person, with their consent.',
          description: [
            `The body is one JSON object, or the same fields URL-encoded as the trip pages' form posts them, of at most ${Math.round(maxBodyBytes / 1024)} KB. Text is trimmed and normalised (Unicode NFC) before its limits are counted, in characters; text over a limit is refused, never cut. Members not listed are ignored.`,
            `A JSON body is answered in JSON. A form is answered as a browser needs: 303 to the enquiry's own page (${thankYouPath}?ref=<reference>) when the team has it, or a page of the site saying what went wrong, with the form again; a form posted from another site's page is refused (403).`,
            `A form carries a one-time token (\`formToken\`), which keys it as \`${idempotencyKeyHeader}\` does: a double click or a resend after a timeout is one enquiry, and goes to its page. A form posted without one (no JavaScript) is keyed by its own fields: the same enquiry sent twice within ${keyLifetimeMs / 3_600_000} hours is the same enquiry.`,
          ].join('\n\n'),
          parameters: [
            {
              name: idempotencyKeyHeader,
              in: 'header',
              required: false,
              description: [
                `Makes the enquiry safe to send again (the IETF httpapi draft "The Idempotency-Key HTTP Header Field"): a Structured Fields string of 1 to ${maxKeyLength} visible ASCII characters, quoted as the draft has it or bare. Use a new UUID for each enquiry and the same one whenever you send that enquiry again.`,
                `The same key with the same body gets the first answer again (201, or the 502/503 of an enquiry kept but not delivered yet) and takes nothing new; with another body, 422; while the first request is still being answered, 409. Keys are kept ${keyLifetimeMs / 3_600_000} hours from their first use, on every instance of the site; after that the key is free again. A request refused without keeping an enquiry (400, 429, 502 \`storage_error\`, 503 \`enquiries_unavailable\`) uses no key. A request answered again does not count against the limit.`,
              ].join('\n\n'),
              schema: { type: 'string', minLength: 1, maxLength: maxKeyLength + 2 },
              example: '"8e03978e-40d5-43e8-bc93-6894a57f9324"',
            },
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: schemaRef('EnquiryRequest'), examples: requestExamples(catalogue) },
              'application/x-www-form-urlencoded': { schema: schemaRef('EnquiryForm') },
            },
          },
          responses: {
            201: {
              description:
                'The enquiry reached the team. `next` says what happens now, in a sentence to pass on; `enquiry.id` is its reference.',
              headers: { 'Cache-Control': { $ref: '#/components/headers/CacheControl' } },
              content: {
                'application/json': {
                  schema: schemaRef('EnquiryReceived'),
                  examples: { received: await receivedExample(catalogue) },
                },
              },
            },
            303: {
              description:
                'To the web form: the enquiry reached the team; the browser goes on to its page, which says what happens next.',
              headers: {
                'Cache-Control': { $ref: '#/components/headers/CacheControl' },
                Location: {
                  description: "The enquiry's page: its reference is the only thing in the address.",
                  required: true,
                  schema: { type: 'string', pattern: `^${thankYouPath}\\?ref=` },
                },
              },
            },
            400: errorResponse(
              `\`invalid_enquiry\`: a field is missing or wrong (\`field\` is the first, \`fields\` names each with its own sentence), or the body is not one JSON object. \`invalid_idempotency_key\`: the \`${idempotencyKeyHeader}\` header is empty, too long or not a string. Nothing was kept.`,
              ['invalid_enquiry', 'invalid_idempotency_key'],
              { ...(await invalidExamples(catalogue)), invalid_idempotency_key: once.invalid },
              {
                html: 'each field to fix named once, the form again with what was typed and each problem next to its field.',
              },
            ),
            403: {
              description: '`cross_site_form`: the web form was posted from a page of another site. Nothing was kept.',
              headers: { 'Cache-Control': { $ref: '#/components/headers/CacheControl' } },
              content: htmlPage("the form can only be sent from the site's own trip pages."),
            },
            409: errorResponse(
              `\`enquiry_in_progress\`: a request with the same \`${idempotencyKeyHeader}\` is being answered right now. Send the same request again after \`Retry-After\`; the enquiry is taken once.`,
              ['enquiry_in_progress'],
              { enquiry_in_progress: once.inProgress },
              {
                headers: {
                  'Retry-After': {
                    description: 'Seconds to wait before sending the same request again.',
                    required: true,
                    schema: { type: 'integer', minimum: 1 },
                    example: 1,
                  },
                },
              },
            ),
            422: errorResponse(
              `\`idempotency_key_reused\`: the \`${idempotencyKeyHeader}\` was already used for an enquiry with other details. Nothing was kept: send exactly the first request again for its answer, or use a new key for a new enquiry.`,
              ['idempotency_key_reused'],
              { idempotency_key_reused: once.reused },
              { html: 'that the form was already sent with other details.' },
            ),
            429: errorResponse(
              `\`rate_limited\`: more than ${bookingRateLimit.requests} enquiries in ${bookingRateLimit.windowSeconds / 60} minutes from this address. Wait as \`Retry-After\` says. Nothing was kept.`,
              ['rate_limited'],
              { rate_limited: limited.example },
              {
                headers: {
                  'Retry-After': {
                    description: 'Seconds until this address may send again.',
                    required: true,
                    schema: seconds,
                    example: Number(limited.retryAfter),
                  },
                },
                html: 'how long to wait, and the contact address.',
              },
            ),
            502: errorResponse(
              '`storage_error`: the enquiry could not be kept; nothing was sent, try again later. `delivery_failed`: it was kept (see `enquiry`) but mail failed; it is delivered later, so do not send it again.',
              ['storage_error', 'delivery_failed'],
              failures[502],
              {
                html: 'that the enquiry was not kept, or that it was kept and will be sent later, with its reference.',
              },
            ),
            503: errorResponse(
              '`enquiries_unavailable`: this deployment takes no online enquiries; give the person the contact address. `delivery_unavailable`: kept (see `enquiry`) but mail is not set up; it is delivered later, so do not send it again.',
              ['enquiries_unavailable', 'delivery_unavailable'],
              failures[503],
              { html: 'the contact address, or that the enquiry was kept and will be sent later, with its reference.' },
            ),
          },
        },
      },
    },
    components: {
      schemas: {
        ...requestSchemas,
        EnquiryForm: formRequestSchema(requestSchemas.EnquiryRequest!),
        ...jsonSchemaComponents({ EnquiryReceived: enquiryReceivedBody, EnquiryError: bookingErrorBody }, 'output'),
      },
      headers: {
        CacheControl: {
          description: 'Answers are never stored by caches.',
          required: true,
          schema: { type: 'string', const: cachePolicy.never },
        },
      },
    },
  };
}
