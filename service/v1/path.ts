/**
 * Which request paths belong to the API, decided once for the request rules, the router of both
 * hosts and the /v1 handler, so a path cannot be counted as the API's by one and answered as a
 * page by another.
 *
 * The path is percent-decoded exactly once and repeated slashes are folded. A decoded path at or
 * under `/v1` is the API's, whatever else it contains: one that a router would resolve to some
 * other place (dot segments, backslashes, control characters, a slash that was escaped inside a
 * segment) is answered by the API as `endpoint_not_found`, never handed to the site.
 */

export type ApiPath =
  | { kind: 'not-api' }
  /** `canonical` is the decoded path, e.g. `/v1/trips/hampta-pass-trek`. */
  | { kind: 'api'; canonical: string; segments: string[] }
  /** Under /v1, but naming no endpoint that can exist. */
  | { kind: 'unroutable'; canonical: string };

function decodeOnce(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return null;
  }
}

// eslint-disable-next-line no-control-regex
const unsafe = /[\\\u0000-\u001f\u007f]/;

export function apiPath(pathname: string): ApiPath {
  const decoded = decodeOnce(pathname);
  const folded = (decoded ?? pathname).replace(/\/{2,}/g, '/');
  if (folded !== '/v1' && !folded.startsWith('/v1/')) return { kind: 'not-api' };
  if (decoded === null || unsafe.test(folded)) return { kind: 'unroutable', canonical: folded };
  const segments = folded.slice('/v1'.length).split('/').slice(1);
  // A slash that arrived as %2F would now split a segment the router saw whole.
  const rawSegments = pathname.replace(/\/{2,}/g, '/').split('/').length;
  if (segments.some((s) => s === '.' || s === '..') || (rawSegments !== folded.split('/').length && /%2f/i.test(pathname))) {
    return { kind: 'unroutable', canonical: folded };
  }
  // `/v1/` and `/v1` are the service index; a trailing slash elsewhere names the same resource.
  while (segments.length > 0 && segments[segments.length - 1] === '') segments.pop();
  return { kind: 'api', canonical: `/v1${segments.map((s) => `/${s}`).join('')}`, segments };
}

/** True for paths the API answers (and the quota counts). */
export function isApiPath(pathname: string): boolean {
  return apiPath(pathname).kind !== 'not-api';
}
