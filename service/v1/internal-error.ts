/**
 * The answer under /v1 when something fails that no handler expected: still the contract's JSON
 * error shape, with its own stable code, and never the details of what failed. The /v1 handler
 * (index.ts) and the live functions (service/functions/live-function.ts) give the same one.
 */
import { ApiError, errorResponse } from '../http/errors.ts';

/** The error of a failure no operation anticipated: a bug, a broken dependency. */
export function internalError(): ApiError {
  return new ApiError('internal_error', {
    message: 'Something went wrong on our side while answering this request.',
    hint: 'Retry in a minute; if it keeps failing, tell us through the contact address on the developer page.',
  });
}

/** That error as an answer to `request`, its documentation under `siteUrl`; no body to a HEAD. */
export function internalErrorResponse(request: Request, siteUrl: string): Response {
  const response = errorResponse(internalError(), siteUrl);
  return request.method === 'HEAD'
    ? new Response(null, { status: response.status, headers: response.headers })
    : response;
}
