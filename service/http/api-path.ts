/**
 * Which request paths belong to the API, decided once for the request rules, the router of both
 * hosts and the /v1 handler, so a path cannot be counted as the API's by one and answered as a
 * page by another.
 *
 * Each segment of the path is percent-decoded exactly once (a malformed escape is kept as it
 * came) and a trailing slash is folded. A path that then reads `/v1`, or `/v1/…`, is the API's,
 * whatever else it contains: one with a leading `//`, dot segments or a slash that was escaped
 * inside a segment names no endpoint and is answered by the API as `endpoint_not_found`, never
 * handed to the site. A doubly escaped `/%2576%2531/` decodes
 * once to `/%76%31/`, which is not the API's, here or anywhere else.
 */

import { memoise } from './bounded-memo.ts';

export type ApiPath =
  | { kind: 'not-api' }
  /** `canonical` is the decoded path, e.g. `/v1/trips/hampta-pass-trek`. */
  | { kind: 'api'; canonical: string; segments: readonly string[] }
  /** Under /v1, but naming no endpoint that can exist. */
  | { kind: 'unroutable'; canonical: string };

function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    // A malformed escape names nothing; kept as it came, a lookup simply finds nothing.
    return raw;
  }
}

/** Every request asks, for pages too; a path reads the same each time, so each is read once. */
export const apiPath: (pathname: string) => ApiPath = memoise(readApiPath);

function readApiPath(pathname: string): ApiPath {
  // Each segment is decoded once on its own, so an escaped slash stays inside its segment.
  const decoded = pathname.split('/').slice(1).map(decodeSegment);
  // A trailing slash is folded; slashes anywhere else leave empty segments, which name no endpoint.
  let end = decoded.length;
  while (end > 0 && decoded[end - 1] === '') end -= 1;
  const segments = decoded.slice(0, end);
  const canonical = `/${segments.join('/')}`;
  // `//v1/trips` or `/v1%2Ftrips` reads as /v1/trips to someone: the API's, though it names no endpoint.
  if (!/^\/+v1(\/|$)/.test(canonical)) return { kind: 'not-api' };
  const rest = segments.slice(1);
  if (segments[0] !== 'v1' || rest.some((s) => s === '.' || s === '..' || s.includes('/')))
    return { kind: 'unroutable', canonical };
  return { kind: 'api', canonical, segments: rest };
}

/**
 * The path a router should be handed for an API request, so that vercel.json's rewrites send it
 * to the API's functions whatever its spelling: the path itself when it already reads `/v1…`
 * literally, the decoded path when that is plain text, or a path under /v1 that names no
 * endpoint (the function reads the original path and answers `endpoint_not_found`).
 */
export function routableApiPath(pathname: string, path: Exclude<ApiPath, { kind: 'not-api' }>): string {
  if (path.kind === 'unroutable') return '/v1/~unroutable';
  if (pathname === '/v1' || pathname.startsWith('/v1/')) return pathname;
  return /^[\x21-\x7e]*$/.test(path.canonical) && !/[%\\]/.test(path.canonical) ? path.canonical : '/v1/~unroutable';
}

/** True for paths the API answers (and the quota counts). */
export function isApiPath(pathname: string): boolean {
  return apiPath(pathname).kind !== 'not-api';
}
