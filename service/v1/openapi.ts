/**
 * The OpenAPI 3.1 document of /v1, generated from what the code runs on: the Zod schemas
 * (components), the operation declarations (paths, parameters, error codes, cache policy), the
 * rate-limit policy (headers) and the handlers themselves (examples). Served as /openapi.json.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { errorBody } from '../http/error-body.ts';
import { errorCodes, errorConditions, type ErrorCode } from '../http/errors.ts';
import { jsonSchemaComponents } from '../http/json-schema.ts';
import { cachePolicy } from '../http/cache-policy.ts';
import { etagPattern } from '../http/respond.ts';
import { apiRateLimit, rateLimitHeaderNames } from '../rules/policy.ts';
import { departureResource } from '../../domain/schemas/departure.ts';
import { peakResource } from '../../domain/schemas/peak.ts';
import { tripResource } from '../../domain/schemas/trip.ts';
import { allowedMethods } from './index.ts';
import {
  allowedRateLimitHeaders,
  errorExamples,
  rateLimitedExample,
  successExample,
  type Example,
} from './openapi-examples.ts';
import { operations, operationTags, type Operation } from './operations.ts';
import { operationResponses } from './responses.ts';
import { apiVersion } from './service-index.ts';
import { enquiryOpenApiPath } from '../site-files.ts';

type Json = Record<string, unknown>;
type RateLimitHeaderName = (typeof rateLimitHeaderNames)[number];

/** Resources the envelopes refer to by name. */
const resourceSchemas = { Trip: tripResource, Peak: peakResource, Departure: departureResource };

const tagDescriptions: Record<(typeof operationTags)[number], string> = {
  Service: 'Where to start: every operation, file, limit and licence term.',
  Trips: 'Published treks and expeditions.',
  Departures: 'Departure dates on sale, read live.',
  Peaks: 'The open peak dataset (CC-BY-4.0).',
};

/** Every failure of a request rule, of the router or of the handler's last resort, possible on any operation. */
const routerErrors = {
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  429: 'RateLimited',
  500: 'InternalError',
} as const;

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** The components/schemas map: resources, envelopes and the error body, converted by Zod. */
function schemaComponents(): Record<string, Json> {
  return jsonSchemaComponents(
    {
      ...resourceSchemas,
      ...Object.fromEntries(operations.map((op) => [op.response.name, operationResponses[op.response.name]])),
      ErrorBody: errorBody,
    },
    'output',
  );
}

/** The rate-limit headers: meaning, schema and an example value, from the policy the limiter enforces. */
function rateLimitHeaderComponents(retryAfterExample: string): Record<string, Json> {
  const { requests, windowSeconds } = apiRateLimit;
  const examples: Record<string, string> = { ...allowedRateLimitHeaders(), 'Retry-After': retryAfterExample };
  const remaining = { type: 'integer', minimum: 0, maximum: requests };
  const reset = { type: 'integer', minimum: 1, maximum: windowSeconds };
  const defined: Record<RateLimitHeaderName, { description: string; schema: Json }> = {
    'RateLimit-Policy': {
      description: 'Quota and window in seconds, `<quota>;w=<seconds>`.',
      schema: { type: 'string', const: examples['RateLimit-Policy'] },
    },
    'RateLimit-Limit': {
      description: 'Requests allowed in the current window.',
      schema: { type: 'integer', const: requests },
    },
    'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: remaining },
    'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: reset },
    RateLimit: {
      description: 'The same numbers in the current draft form: `"default";r=<remaining>;t=<seconds to reset>`.',
      schema: { type: 'string', pattern: '^"default";r=[0-9]+;t=[0-9]+$' },
    },
    'X-RateLimit-Limit': {
      description: 'Legacy alias of `RateLimit-Limit`, same value.',
      schema: { type: 'integer', const: requests },
    },
    'X-RateLimit-Remaining': { description: 'Legacy alias of `RateLimit-Remaining`, same value.', schema: remaining },
    'X-RateLimit-Reset': {
      description: 'Legacy alias of `RateLimit-Reset`, same value (seconds, not a timestamp).',
      schema: reset,
    },
    'Retry-After': { description: 'On 429 only: seconds to wait before retrying.', schema: reset },
  };
  return Object.fromEntries(
    rateLimitHeaderNames.map((name) => {
      const { description, schema } = defined[name];
      const raw = examples[name];
      const example = schema.type === 'integer' ? Number(raw) : raw;
      return [name, { description, required: true, schema, ...(raw === undefined ? {} : { example }) }];
    }),
  );
}

/** Headers every /v1 response carries, as references. */
function rateLimitHeaderRefs(): Record<string, Json> {
  return Object.fromEntries(
    rateLimitHeaderNames.filter((name) => name !== 'Retry-After').map((name) => [name, headerRef(name)]),
  );
}

function cachingHeaders(op: Operation): Record<string, Json> {
  return {
    ETag: headerRef('ETag'),
    'Cache-Control': {
      description: 'How long the response may be reused.',
      required: true,
      schema: { type: 'string', const: cachePolicy[op.cache] },
    },
    ...rateLimitHeaderRefs(),
  };
}

/**
 * The error body narrowed to the codes (and so the status) a response can carry. The narrowing
 * adds constraints only; `additionalProperties: true` says so to tools that would otherwise
 * read the branch as a closed object.
 */
function errorSchema(codes: ErrorCode[], status: number): Json {
  const narrowed = {
    type: 'object',
    properties: { code: { enum: codes }, status: { const: status } },
    additionalProperties: true,
  };
  return {
    allOf: [schemaRef('ErrorBody'), { type: 'object', properties: { error: narrowed }, additionalProperties: true }],
  };
}

function errorResponseObject(
  codes: ErrorCode[],
  status: number,
  examples: Record<string, Example>,
  extraHeaders: Record<string, Json> = {},
): Json {
  return {
    description: codes.map((code) => `\`${code}\`: ${errorConditions[code]}`).join(' '),
    headers: { ...extraHeaders, ...rateLimitHeaderRefs() },
    content: { 'application/json': { schema: errorSchema(codes, status), examples } },
  };
}

/** Headers an error code's answer carries besides the rate-limit ones: a moved peak's new address. */
function errorHeaders(codes: readonly ErrorCode[]): Record<string, Json> {
  return codes.includes('peak_moved')
    ? {
        Location: {
          description: 'The address of the peak under its current id.',
          schema: { type: 'string', format: 'uri' },
        },
      }
    : {};
}

async function operationObject(op: Operation, catalogue: Catalogue): Promise<Json> {
  const parameters: Json[] = [];
  if (op.pathParam) {
    const example = op.pathParam.example(catalogue);
    parameters.push({
      name: op.pathParam.name,
      in: 'path',
      required: true,
      description: op.pathParam.description,
      schema: op.pathParam.openapi,
      ...(example ? { example } : {}),
    });
  }
  for (const [name, param] of Object.entries(op.query)) {
    const text = param.example?.(catalogue);
    // The example as the JSON type its schema names: an integer parameter's example is a number.
    const example = text !== undefined && param.openapi.type === 'integer' ? Number(text) : text;
    parameters.push({
      name,
      in: 'query',
      required: false,
      description: `${param.description} Accepted: ${param.accepted}.`,
      schema: param.openapi,
      ...(example !== undefined ? { example } : {}),
    });
  }
  parameters.push({ $ref: '#/components/parameters/IfNoneMatch' });

  const success = await successExample(op, catalogue);
  const responses: Record<string, Json> = {
    200: {
      description: `The ${op.response.name}. HEAD answers the same headers without the body.`,
      headers: cachingHeaders(op),
      content: {
        'application/json': {
          schema: schemaRef(op.response.name),
          ...(success ? { examples: { [op.operationId]: success } } : {}),
        },
      },
    },
    304: {
      description: 'Not modified: `If-None-Match` matched the current `ETag`. No body.',
      headers: cachingHeaders(op),
    },
  };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of op.errors) byStatus.set(errorCodes[code], [...(byStatus.get(errorCodes[code]) ?? []), code]);
  for (const [status, codes] of byStatus) {
    const examples: Record<string, Example> = {};
    for (const code of codes) Object.assign(examples, await errorExamples(op, code, catalogue));
    responses[status] = errorResponseObject(codes, status, examples, errorHeaders(codes));
  }
  for (const [status, name] of Object.entries(routerErrors))
    responses[status] = { $ref: `#/components/responses/${name}` };

  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: op.description,
    parameters,
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b))),
  };
}

function describeApi(catalogue: Catalogue): string {
  const { requests, windowSeconds } = apiRateLimit;
  return [
    catalogue.site.description,
    '',
    `- **No authentication.** No registration, token or key. An \`Authorization\` header is ignored: responses are the same without it.`,
    `- **JSON only.** Every response, success or error, is \`application/json; charset=utf-8\`. An \`Accept\` header that excludes JSON answers 406 \`not_acceptable\`.`,
    `- **One error shape.** \`{ "error": { code, message, status, documentationUrl, hint } }\` (schema \`ErrorBody\`); branch on \`code\`, not on \`message\`. A path under the base URL that is no operation answers 404 \`endpoint_not_found\`; a method other than ${allowedMethods} answers 405 \`method_not_allowed\` with an \`Allow\` header; a failure on our side answers 500 \`internal_error\`.`,
    `- **Rate limit.** ${requests} requests per ${windowSeconds} seconds per client IP, reported on every response by the \`RateLimit-*\` headers and their \`X-RateLimit-*\` aliases; over the quota the answer is 429 \`rate_limited\` with \`Retry-After\`. Should the counter store be unreachable the API keeps answering, without these headers.`,
    `- **Caching.** Successful responses carry a strong \`ETag\`; send it back in \`If-None-Match\` to get 304 with no body. \`Cache-Control\`: \`${cachePolicy.catalogue}\`, departures \`${cachePolicy.departures}\`.`,
    `- **Peak dataset licence.** CC-BY-4.0. Cite: ${catalogue.attribution}`,
    `- **Versioning.** Additive changes ship inside v1; \`operationId\` and error \`code\` values are never renamed or reused within v1.`,
    '',
    `Live availability is also published as Markdown at ${catalogue.siteUrl}/departures.md. Booking is not part of this API: a booking enquiry is sent with \`POST ${catalogue.siteUrl}/api/bookings\`, described in its own OpenAPI document at ${catalogue.siteUrl}${enquiryOpenApiPath}.`,
  ].join('\n');
}

export async function buildOpenApiDocument(catalogue: Catalogue): Promise<Json> {
  const { site, siteUrl } = catalogue;
  const rateLimited = await rateLimitedExample(catalogue);
  const routerExamples = async (code: ErrorCode) =>
    errorExamples(operations.find((op) => op.path === '/trips') ?? operations[0]!, code, catalogue);

  const paths: Record<string, Json> = {};
  for (const op of operations) paths[op.path] = { get: await operationObject(op, catalogue) };

  return {
    openapi: '3.1.0',
    info: {
      title: site.serviceName,
      version: apiVersion,
      description: describeApi(catalogue),
      contact: { name: site.operatorName, email: site.contactEmail, url: `${siteUrl}/developers` },
      license: { name: `${site.dataset.license} (peak dataset)`, identifier: site.dataset.license },
    },
    externalDocs: { description: 'Developer reference', url: `${siteUrl}/developers` },
    servers: [{ url: `${siteUrl}/${apiVersion}`, description: 'This deployment' }],
    // Public and read-only: no security scheme applies, and Authorization is ignored.
    security: [],
    tags: operationTags.map((name) => ({ name, description: tagDescriptions[name] })),
    paths,
    components: {
      schemas: schemaComponents(),
      parameters: {
        IfNoneMatch: {
          name: 'If-None-Match',
          in: 'header',
          required: false,
          description: 'The `ETag` of a copy you hold; while it is current the answer is 304 with no body.',
          schema: { type: 'string' },
        },
      },
      headers: {
        ETag: {
          description: 'Strong validator of the body, for `If-None-Match`.',
          required: true,
          schema: { type: 'string', pattern: etagPattern.source },
        },
        Allow: {
          description: 'The accepted methods.',
          required: true,
          schema: { type: 'string', const: allowedMethods },
        },
        ...rateLimitHeaderComponents(rateLimited.headers['retry-after'] ?? String(apiRateLimit.windowSeconds)),
      },
      responses: {
        [routerErrors[405]]: errorResponseObject(
          ['method_not_allowed'],
          405,
          await routerExamples('method_not_allowed'),
          { Allow: headerRef('Allow') },
        ),
        [routerErrors[406]]: errorResponseObject(['not_acceptable'], 406, await routerExamples('not_acceptable')),
        [routerErrors[429]]: errorResponseObject(
          ['rate_limited'],
          429,
          { rate_limited: rateLimited.example },
          { 'Retry-After': headerRef('Retry-After') },
        ),
        [routerErrors[500]]: errorResponseObject(['internal_error'], 500, await routerExamples('internal_error')),
      },
    },
  };
}
