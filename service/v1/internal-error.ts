/**
 * The answer under /v1 when something fails that no handler expected: still the contract's JSON
 * error shape, with its own stable code, and never the details of what failed.
 */
import { readSettings } from '../config.ts';
import { ApiError, errorResponse } from '../http/errors.ts';

export function internalErrorResponse(request: Request): Response {
  let siteUrl: string;
  try {
    siteUrl = readSettings().siteUrl;
  } catch {
    siteUrl = new URL(request.url).origin;
  }
  const response = errorResponse(
    new ApiError('internal_error', {
      message: 'Something went wrong on our side while answering this request.',
      hint: 'Retry in a minute. If it keeps happening, write to the contact address in the service index.',
    }),
    siteUrl,
  );
  return request.method === 'HEAD'
    ? new Response(null, { status: response.status, headers: response.headers })
    : response;
}
