/**
 * JSON success responses for /v1: UTF-8 content type, cache policy, a strong ETag and
 * 304 on a matching If-None-Match (service/http/not-modified.ts); HEAD gets the headers without the body.
 */
import { notModifiedResponse } from './not-modified.ts';

/**
 * Whatever shows departures (the API, the board, a trip's block, twins, calendars) is at most
 * 60 seconds old wherever it is read, the contract's cap, and this is how the minute is spent:
 *   - the storage read that answers is at most `departuresReadMaxAgeMs` old (DEPARTURES_FRESH_MS
 *     may lower it, never raise it);
 *   - a shared cache (Vercel's CDN, the Node host's edge cache, a proxy) keeps the answer fresh
 *     for 1 s, then may serve it for 28 s more while it asks again, and says how old it is (Age);
 *   - a browser counts that age in: it reuses the answer until it is 30 s old, then shows it
 *     while it asks again until it is 58 s old (`stale-while-revalidate` holds for browsers
 *     too), and never after.
 * So 1 s + 58 s, with a second to spare for ages rounded to whole seconds.
 */
export const departuresReadMaxAgeMs = 1000;

export const cachePolicy = {
  /** Catalogue data changes only with a deploy. */
  catalogue: 'public, max-age=300, s-maxage=3600',
  /** Departures change as seats sell: at most 60 seconds old in all (above). */
  departures: 'public, max-age=30, s-maxage=1, stale-while-revalidate=28',
} as const;

/** The form of every ETag /v1 sends: a quoted, truncated SHA-256 of the body. */
export const etagPattern = /^"[0-9a-f]{32}"$/;

async function strongEtag(body: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body));
  const hex = Array.from(new Uint8Array(digest).slice(0, 16), (b) => b.toString(16).padStart(2, '0')).join('');
  return `"${hex}"`;
}

export function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** A JSON body serialised once, with its ETag and length, ready to answer any number of requests. */
export interface PreparedJson {
  body: string;
  etag: string;
  length: number;
}

export async function prepareJson(data: unknown): Promise<PreparedJson> {
  const body = JSON.stringify(data);
  return { body, etag: await strongEtag(body), length: new TextEncoder().encode(body).byteLength };
}

export async function jsonResponse(request: Request, data: unknown, cacheControl: string): Promise<Response> {
  return preparedJsonResponse(request, await prepareJson(data), cacheControl);
}

export function preparedJsonResponse(request: Request, { body, etag, length }: PreparedJson, cacheControl: string): Response {
  const headers = new Headers({
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': cacheControl,
    ETag: etag,
    // The same address answers 406 to an Accept that rules JSON out: caches must tell them apart.
    Vary: 'Accept',
  });
  if (matchesEtag(request.headers.get('If-None-Match'), etag)) return notModifiedResponse(headers);
  headers.set('Content-Length', String(length));
  return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers });
}
