/**
 * The one error shape of /v1: `{ error: { code, message, status, documentationUrl, hint? } }`.
 * Every error response under /v1 is built here, so the shape and the code-to-status table
 * cannot drift apart. Its Zod schema (for OpenAPI and tests) is in error-body.ts, so the
 * request rules can answer an error without loading Zod.
 */
import { cachePolicy } from './cache-policy.ts';

export const errorCodes = {
  invalid_parameter: 400,
  trip_not_found: 404,
  peak_not_found: 404,
  peak_removed: 410,
  peak_moved: 301,
  endpoint_not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  rate_limited: 429,
  departures_upstream_error: 502,
  departures_unavailable: 503,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof errorCodes;

/** When each code is answered, in the words of the contract; the OpenAPI document publishes these. */
export const errorConditions: Record<ErrorCode, string> = {
  invalid_parameter:
    'A query parameter is malformed, unknown, repeated or outside its bounds; `hint` names the accepted form.',
  trip_not_found: 'No trip has the given slug; `hint` points at the trip list.',
  peak_not_found: 'No peak has the given id; `hint` points at the peak list.',
  peak_removed:
    'An earlier release of the dataset had the id, and no peak has it now: `message` says when and why it went and where its last record is kept; `hint` names the peak added in its place, if any.',
  peak_moved:
    'The same peak has another id now: `Location` is its address, and a client that follows redirects gets it. Not an error; the body says the same in the error shape for clients that do not follow.',
  endpoint_not_found: 'No endpoint at the path.',
  method_not_allowed: 'The method is not GET, HEAD or OPTIONS; the `Allow` header lists the accepted ones.',
  not_acceptable: 'The `Accept` header excludes `application/json`.',
  rate_limited: 'The per-IP quota is used up; `Retry-After` gives the seconds to wait.',
  departures_upstream_error: 'Operational storage could not be read.',
  departures_unavailable: 'No operational storage is configured for departures.',
  internal_error:
    'Something failed on our side; the request itself may be fine. Retry later, and tell us if it persists.',
};

/** What every /v1 error answer says (the schema in error-body.ts describes the same). */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; status: number; documentationUrl: string; hint?: string };
}

export interface ApiErrorInit {
  message: string;
  hint?: string | undefined;
  headers?: HeadersInit | undefined;
}

/** Thrown by handlers and turned into the error response at the edge of /v1. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly hint: string | undefined;
  readonly headers: HeadersInit | undefined;
  constructor(code: ErrorCode, init: ApiErrorInit) {
    super(init.message);
    this.code = code;
    this.status = errorCodes[code];
    this.hint = init.hint;
    this.headers = init.headers;
  }
}

function errorDocumentationUrl(siteUrl: string): string {
  return `${siteUrl}/developers#errors`;
}

export function errorResponse(error: ApiError, siteUrl: string): Response {
  const { body, headers } = errorAnswer(error, siteUrl);
  return new Response(body, { status: error.status, headers });
}

/** The parts of an error's answer: its JSON body and its headers. */
export function errorAnswer(error: ApiError, siteUrl: string): { body: string; headers: Headers } {
  const body: ErrorBody = {
    error: {
      code: error.code,
      message: error.message,
      status: error.status,
      documentationUrl: errorDocumentationUrl(siteUrl),
      ...(error.hint ? { hint: error.hint } : {}),
    },
  };
  const headers = new Headers(error.headers);
  headers.set('Content-Type', 'application/json; charset=utf-8');
  headers.set('Cache-Control', cachePolicy.never);
  return { body: JSON.stringify(body), headers };
}
