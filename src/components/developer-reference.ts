/**
 * The developer page's content, read from the generated OpenAPI document (so the page cannot
 * drift from /openapi.json) plus the error table, rate-limit policy and published files.
 * The HTML page and its Markdown twin both render this one model.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { errorCodes, errorConditions, type ErrorCode } from '../../service/http/errors.ts';
import { cachePolicy } from '../../service/http/cache-policy.ts';
import { apiRateLimit, bookingRateLimit } from '../../service/rules/policy.ts';
import { enquiryOpenApiPath, siteFiles, siteFileUrl } from '../../service/site-files.ts';
import { buildEnquiryOpenApiDocument } from '../../service/bookings/openapi.ts';
import { buildOpenApiDocument } from '../../service/v1/openapi.ts';

type Json = Record<string, unknown>;

export interface ReferenceField {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

interface ReferenceOperation {
  operationId: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  parameters: (ReferenceField & { in: string })[];
  responses: { status: string; description: string }[];
  curl: string[];
  /** The success example as pretty JSON, long lists cut to their first items. */
  example: string | undefined;
}

export interface DeveloperReference {
  title: string;
  version: string;
  baseUrl: string;
  openapiUrl: string;
  /** The document's own overview, Markdown. */
  overview: string;
  operations: ReferenceOperation[];
  schemas: { name: string; description: string; fields: ReferenceField[] }[];
  errors: { code: ErrorCode; status: number; condition: string }[];
  errorExample: string | undefined;
  rateLimit: {
    requests: number;
    windowSeconds: number;
    scope: string;
    headers: { name: string; description: string }[];
  };
  bookingLimit: { requests: number; windowSeconds: number };
  /** POST /api/bookings, read from its own OpenAPI document. */
  enquiry: {
    url: string;
    openapiUrl: string;
    fields: ReferenceField[];
    example: string;
    answers: { status: string; description: string }[];
  };
  cache: { catalogue: string; departures: string };
  files: { url: string; description: string; mediaType: string }[];
  siteUrl: string;
  contactEmail: string;
}

const asObject = (value: unknown): Json =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
/** A text of the document, or `fallback` where it has none (or something other than text). */
const textOf = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
const refName = (ref: unknown) => (typeof ref === 'string' ? ref.slice(ref.lastIndexOf('/') + 1) : '');

/** A JSON Schema as a short type text: `string`, `integer or null`, `"trek" | "expedition"`, `array of Trip`. */
function typeText(schema: unknown): string {
  const s = asObject(schema);
  if (s.$ref) return refName(s.$ref);
  if ('const' in s) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (Array.isArray(s.anyOf)) return s.anyOf.map(typeText).join(' or ');
  if (s.type === 'array') return `array of ${typeText(s.items)}`;
  const base = Array.isArray(s.type) ? s.type.join(' or ') : textOf(s.type, 'any');
  const format =
    typeof s.format === 'string'
      ? ` (${s.format})`
      : typeof s.pattern === 'string'
        ? ` (pattern \`${s.pattern}\`)`
        : '';
  return `${base}${format}`;
}

function fieldsOf(schema: Json): ReferenceField[] {
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(asObject(schema.properties)).map(([name, prop]) => ({
    name,
    type: typeText(prop),
    required: required.has(name),
    description: textOf(asObject(prop).description),
  }));
}

/** Cuts arrays to their first two items so an example stays readable. */
function trimmed(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 2).map(trimmed);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trimmed(v)]));
  return value;
}

/** Example values for a filter, so each list operation gets one realistic filtered call. */
const sampleValues: Record<string, string> = {
  region: 'ladakh',
  maxPriceInr: '30000',
  maxAltitudeM: '6500',
  difficulty: 'Moderate',
};

function sampleValue(name: string, schema: Json, example: unknown): string {
  if (sampleValues[name]) return sampleValues[name];
  if (typeof example === 'string' || typeof example === 'number') return String(example);
  if (Array.isArray(schema.enum)) return String(schema.enum[0]);
  if (schema.type === 'boolean') return 'true';
  return 'value';
}

function firstExample(response: Json): unknown {
  const content = asObject(asObject(response.content)['application/json']);
  const examples = Object.values(asObject(content.examples));
  return examples.length > 0 ? asObject(examples[0]).value : content.example;
}

function operationsOf(document: Json, baseUrl: string): ReferenceOperation[] {
  const result: ReferenceOperation[] = [];
  for (const [path, item] of Object.entries(asObject(document.paths))) {
    for (const [method, raw] of Object.entries(asObject(item))) {
      const op = asObject(raw);
      const responses = asObject(op.responses);
      const parameters = (Array.isArray(op.parameters) ? op.parameters : [])
        .map(asObject)
        .filter((p) => typeof p.name === 'string' && p.in !== 'header')
        .map((p) => ({
          name: String(p.name),
          in: String(p.in),
          type: typeText(p.schema),
          required: p.required === true,
          description: textOf(p.description),
        }));
      const success = asObject(responses['200']);
      const successExample = Object.values(
        asObject(asObject(asObject(success.content)['application/json']).examples),
      ).map(asObject)[0];
      const examplePath =
        typeof successExample?.summary === 'string' && successExample.summary.startsWith('GET /')
          ? successExample.summary.slice(4)
          : path;
      const curl = [`curl -s '${baseUrl}${examplePath === '/' ? '/' : examplePath}'`];
      const query = (Array.isArray(op.parameters) ? op.parameters : []).map(asObject).filter((p) => p.in === 'query');
      if (query.length > 0) {
        const picked = query
          .slice(0, 2)
          .map(
            (p) =>
              `${String(p.name)}=${encodeURIComponent(sampleValue(String(p.name), asObject(p.schema), p.example))}`,
          );
        curl.push(`curl -s '${baseUrl}${path}?${picked.join('&')}'`);
      }
      const example = firstExample(success);
      result.push({
        operationId: textOf(op.operationId),
        method: method.toUpperCase(),
        path,
        summary: textOf(op.summary),
        description: textOf(op.description),
        parameters,
        responses: Object.entries(responses).map(([status, r]) => {
          const response = asObject(r);
          const described = response.$ref
            ? asObject(asObject(asObject(document.components).responses)[refName(response.$ref)])
            : response;
          return { status, description: textOf(described.description) };
        }),
        curl,
        example: example === undefined ? undefined : JSON.stringify(trimmed(example), null, 2),
      });
    }
  }
  return result;
}

export async function developerReference(catalogue: Catalogue): Promise<DeveloperReference> {
  const document = await buildOpenApiDocument(catalogue);
  const info = asObject(document.info);
  const servers = Array.isArray(document.servers) ? document.servers.map(asObject) : [];
  const baseUrl = textOf(servers[0]?.url, `${catalogue.siteUrl}/v1`).replace(/\/+$/, '');
  const components = asObject(document.components);
  const schemas = asObject(components.schemas);
  const headers = asObject(components.headers);
  const operations = operationsOf(document, baseUrl);
  const getTrip = asObject(asObject(asObject(document.paths)['/trips/{slug}']).get);
  const errorExample = firstExample(asObject(asObject(getTrip.responses)['404']));
  return {
    title: textOf(info.title, catalogue.site.serviceName),
    version: textOf(info.version, 'v1'),
    baseUrl,
    openapiUrl: `${catalogue.siteUrl}/openapi.json`,
    overview: textOf(info.description),
    operations,
    schemas: [
      'Trip',
      'Peak',
      'Departure',
      'ErrorBody',
      'TripList',
      'TripEnvelope',
      'PeakList',
      'PeakEnvelope',
      'DepartureList',
      'ServiceIndex',
    ]
      .filter((name) => name in schemas)
      .map((name) => ({
        name,
        description: textOf(asObject(schemas[name]).description),
        fields: fieldsOf(asObject(schemas[name])),
      })),
    errors: (Object.keys(errorCodes) as ErrorCode[]).map((code) => ({
      code,
      status: errorCodes[code],
      condition: errorConditions[code],
    })),
    errorExample: errorExample === undefined ? undefined : JSON.stringify(errorExample, null, 2),
    rateLimit: {
      requests: apiRateLimit.requests,
      windowSeconds: apiRateLimit.windowSeconds,
      scope: apiRateLimit.scope,
      headers: Object.entries(headers)
        .filter(([name]) => /ratelimit|retry-after/i.test(name))
        .map(([name, h]) => ({ name, description: textOf(asObject(h).description) })),
    },
    bookingLimit: { requests: bookingRateLimit.requests, windowSeconds: bookingRateLimit.windowSeconds },
    enquiry: await enquiryReference(catalogue),
    cache: { catalogue: cachePolicy.catalogue, departures: cachePolicy.departures },
    files: siteFiles.map((file) => ({
      url: siteFileUrl(catalogue.siteUrl, file),
      description: file.description,
      mediaType: file.mediaType,
    })),
    siteUrl: catalogue.siteUrl,
    contactEmail: catalogue.site.contactEmail,
  };
}

async function enquiryReference(catalogue: Catalogue): Promise<DeveloperReference['enquiry']> {
  const document = await buildEnquiryOpenApiDocument(catalogue);
  const post = asObject(asObject(asObject(document.paths)['/api/bookings']).post);
  const body = asObject(asObject(asObject(post.requestBody).content)['application/json']);
  const request = asObject(asObject(asObject(document.components).schemas).EnquiryRequest);
  return {
    url: `${catalogue.siteUrl}/api/bookings`,
    openapiUrl: `${catalogue.siteUrl}${enquiryOpenApiPath}`,
    fields: fieldsOf(request),
    example: JSON.stringify(asObject(asObject(body.examples).minimal).value),
    answers: Object.entries(asObject(post.responses)).map(([status, response]) => ({
      status,
      description: textOf(asObject(response).description),
    })),
  };
}
