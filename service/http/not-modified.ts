/**
 * What a 304 (Not Modified) carries, for every answer of both hosts (RFC 9110 §15.4.5): the
 * fields the 200 would have had for caches (Cache-Control, ETag, Vary, Expires, Date, …) and the
 * answer's other headers (security, CORS, rate limits), but no representation metadata: the
 * client already holds the body, and with it its type and length. A 304 that names a type misleads
 * caches and proxies that update their copy from it (Prism's validation proxy fails on one).
 */

/** The representation metadata a 304 leaves out, lower case. */
export const representationHeaders: ReadonlySet<string> = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'x-markdown-tokens',
]);

/** A 304 answer from the headers the 200 would have had. */
export function notModifiedResponse(headers: HeadersInit): Response {
  const kept = new Headers(headers);
  for (const name of representationHeaders) kept.delete(name);
  return new Response(null, { status: 304, headers: kept });
}

/** The same, for a flat list of Node header names and values (`[name, value, name, value, …]`). */
export function notModifiedRaw(raw: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2)
    if (!representationHeaders.has(raw[i]!.toLowerCase())) kept.push(raw[i]!, raw[i + 1]!);
  return kept;
}
