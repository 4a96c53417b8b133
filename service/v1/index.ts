/**
 * The /v1 API as one function of `Request`: method and Accept checks, routing to the declared
 * operations, and every failure turned into the contract's error shape.
 * Rate limiting and CORS are request rules (service/rules) and run in front of this.
 */
import { ApiError, errorResponse } from '../http/errors.ts';
import { shownPath } from '../http/quoted.ts';
import { cachePolicy } from '../http/cache-policy.ts';
import { jsonResponse, prepareJson, preparedJsonResponse } from '../http/respond.ts';
import type { BoundedMemo } from '../http/bounded-memo.ts';
import type { PreparedJson } from '../http/respond.ts';

/** A catalogue answer as it is kept: the data, or the client error it makes. */
export type MemoAnswer = { kind: 'json'; json: PreparedJson } | { kind: 'error'; error: ApiError };
export type AnswerMemo = BoundedMemo<MemoAnswer>;
import { operations, type Operation, type V1Deps } from './operations.ts';
import { acceptsJson } from '../http/accept-json.ts';
import { apiPath } from '../http/api-path.ts';
import { internalError } from './internal-error.ts';
import { requestUrl } from '../http/request-url.ts';

export { acceptsJson };

export const allowedMethods = 'GET, HEAD, OPTIONS';

/** The operation a decoded path names, with its path parameter. */
function match(segments: readonly string[]): { op: Operation; pathParam?: string } | undefined {
  for (const op of operations) {
    const pattern = op.path === '/' ? [] : op.path.split('/').slice(1);
    if (pattern.length !== segments.length) continue;
    let pathParam: string | undefined;
    const fits = pattern.every((part, i) => {
      const segment = segments[i] ?? '';
      if (part.startsWith('{')) {
        pathParam = segment;
        return segment.length > 0;
      }
      return part === segment;
    });
    if (fits) return pathParam === undefined ? { op } : { op, pathParam };
  }
  return undefined;
}

/** A catalogue operation's answer, kept whether it is data or a client error. */
async function catalogueAnswer(op: Operation, ctx: Parameters<Operation['run']>[0]): Promise<MemoAnswer> {
  try {
    return { kind: 'json', json: await prepareJson(await op.run(ctx)) };
  } catch (error) {
    if (error instanceof ApiError) return { kind: 'error', error };
    throw error;
  }
}

/**
 * Answers one /v1 request. With `memo`, catalogue operations (everything but departures) are
 * worked out once per path and query string; departures are always read live.
 */
export async function handleV1(request: Request, deps: V1Deps, memo?: AnswerMemo): Promise<Response> {
  const url = requestUrl(request);
  try {
    if (!['GET', 'HEAD', 'OPTIONS'].includes(request.method)) {
      throw new ApiError('method_not_allowed', {
        message: `${request.method.slice(0, 20)} is not allowed: the API is read-only.`,
        hint: 'Use GET (or HEAD). Enquiries go to POST /api/bookings, outside the versioned API.',
        headers: { Allow: allowedMethods },
      });
    }
    const path = apiPath(url.pathname);
    const found = path.kind === 'api' ? match(path.segments) : undefined;
    if (!found) {
      throw new ApiError('endpoint_not_found', {
        message: `No endpoint at ${shownPath(url.pathname) ?? 'this address'}.`,
        hint: `The service index at ${deps.catalogue.siteUrl}/v1/ lists every endpoint.`,
      });
    }
    if (request.method === 'OPTIONS') {
      return new Response(null, { status: 204, headers: { Allow: allowedMethods } });
    }
    if (!acceptsJson(request.headers.get('Accept'))) {
      throw new ApiError('not_acceptable', {
        message: 'Every /v1 response is JSON, and the Accept header of this request excludes application/json.',
        hint: 'Send Accept: application/json (or */*), or omit the header.',
      });
    }
    const { op, pathParam } = found;
    if (op.cache === 'catalogue' && memo) {
      const answer = await memo.answer(`${url.pathname}${url.search}`, () =>
        catalogueAnswer(op, { url, pathParam, deps }),
      );
      if (answer.kind === 'error') throw answer.error;
      return preparedJsonResponse(request, answer.json, cachePolicy[op.cache]);
    }
    const data = await op.run({ url, pathParam, deps });
    return await jsonResponse(request, data, cachePolicy[op.cache]);
  } catch (error) {
    const response = errorResponse(
      error instanceof ApiError ? error : unexpected(request, url, error, deps),
      deps.catalogue.siteUrl,
    );
    // HEAD gets an error's status and headers without its body, as it does for successes.
    return request.method === 'HEAD'
      ? new Response(null, { status: response.status, headers: response.headers })
      : response;
  }
}

/**
 * A failure no operation anticipated (a bug, a broken dependency): logged with the request so
 * it can be found, answered in the contract's shape without the cause, which may name internals.
 */
function unexpected(request: Request, url: URL, error: unknown, deps: V1Deps): ApiError {
  const cause = error instanceof Error ? (error.stack ?? error.message) : String(error);
  (deps.log ?? console.error)(
    `[v1] ${request.method.slice(0, 20)} ${(url.pathname + url.search).slice(0, 300)}: unexpected failure: ${cause}`,
  );
  return internalError();
}
