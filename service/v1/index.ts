/**
 * The /v1 API as one function of `Request`: method and Accept checks, routing to the declared
 * operations, and every failure turned into the contract's error shape.
 * Rate limiting and CORS are request rules (service/rules) and run in front of this.
 */
import { ApiError, errorResponse } from '../http/errors.ts';
import { cachePolicy, jsonResponse } from '../http/respond.ts';
import { operations, type Operation, type V1Deps } from './operations.ts';

export const allowedMethods = 'GET, HEAD, OPTIONS';

/** True unless the Accept header rules JSON out (`*\/*` and browser defaults accept it). */
export function acceptsJson(accept: string | null): boolean {
  if (accept === null || accept.trim() === '') return true;
  return accept.split(',').some((range) => {
    const [type = '', ...params] = range.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) return false;
    const media = type.trim();
    return media === 'application/json' || media === 'application/*' || media === '*/*';
  });
}

function match(pathname: string): { op: Operation; pathParam?: string } | undefined {
  const rest = pathname.replace(/^\/v1/, '').replace(/\/+$/, '') || '/';
  const segments = rest.split('/').slice(1);
  for (const op of operations) {
    const pattern = op.path === '/' ? [''] : op.path.split('/').slice(1);
    if (rest === '/' && op.path === '/') return { op };
    if (pattern.length !== segments.length || rest === '/') continue;
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

function decodeSegment(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

export async function handleV1(request: Request, deps: V1Deps): Promise<Response> {
  const url = new URL(request.url);
  try {
    if (!['GET', 'HEAD', 'OPTIONS'].includes(request.method)) {
      throw new ApiError('method_not_allowed', {
        message: `${request.method.slice(0, 20)} is not allowed: the API is read-only.`,
        hint: 'Use GET (or HEAD). Enquiries go to POST /api/bookings, outside the versioned API.',
        headers: { Allow: allowedMethods },
      });
    }
    const found = match(url.pathname);
    if (!found) {
      throw new ApiError('endpoint_not_found', {
        message: `No endpoint at ${url.pathname.slice(0, 120)}.`,
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
    const { op } = found;
    // A malformed escape cannot name anything; keep it raw so the lookup simply finds nothing.
    const raw = found.pathParam;
    const pathParam = raw === undefined ? undefined : (decodeSegment(raw) ?? raw);
    const data = await op.run({ url, pathParam, deps });
    return await jsonResponse(request, data, cachePolicy[op.cache]);
  } catch (error) {
    const response = errorResponse(error instanceof ApiError ? error : unexpected(request, url, error, deps), deps.catalogue.siteUrl);
    // HEAD gets an error's status and headers without its body, as it does for successes.
    return request.method === 'HEAD' ? new Response(null, { status: response.status, headers: response.headers }) : response;
  }
}

/**
 * A failure no operation anticipated (a bug, a broken dependency): logged with the request so
 * it can be found, answered in the contract's shape without the cause, which may name internals.
 */
function unexpected(request: Request, url: URL, error: unknown, deps: V1Deps): ApiError {
  const cause = error instanceof Error ? (error.stack ?? error.message) : String(error);
  (deps.log ?? console.error)(`[v1] ${request.method.slice(0, 20)} ${(url.pathname + url.search).slice(0, 300)}: unexpected failure: ${cause}`);
  return new ApiError('internal_error', {
    message: 'Something went wrong on our side while answering this request.',
    hint: 'Retry in a minute; if it keeps failing, tell us through the contact address on the developer page.',
  });
}
