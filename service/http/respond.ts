/**
 * JSON success responses for /v1: UTF-8 content type, cache policy (cache-policy.ts), a strong ETag and
 * 304 on a matching If-None-Match (service/http/not-modified.ts); HEAD gets the headers without the body.
 */
import { notModifiedResponse } from './not-modified.ts';

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

export function preparedJsonResponse(
  request: Request,
  { body, etag, length }: PreparedJson,
  cacheControl: string,
): Response {
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
