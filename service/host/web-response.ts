/**
 * Writing an answer to Node's HTTP response: a web Response (from the rules or a live function),
 * or a function's answer the edge cache keeps, compressed when the client accepts it and the
 * body is worth it, as Vercel's CDN does for functions.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { matchesEtag } from '../http/respond.ts';
import { notModifiedRaw } from '../http/not-modified.ts';
import { chosenEncoding, compress, worthCompressing } from './compression.ts';
import type { EdgeCache, EncodedBody, KeptResponse, KeptRuleList } from './edge-cache.ts';
import { lowerCase } from './static-files.ts';
import type { PreparedAnswer, RuleHeaders } from '../rules/index.ts';

export async function writeWebResponse(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of response.headers) headers[name] = value;
  if (req.method === 'HEAD' || response.body === null || response.status === 204 || response.status === 304) {
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  let body: Buffer = Buffer.from(await response.arrayBuffer());
  if (
    worthCompressing(response.headers.get('Content-Type') ?? '', body.length) &&
    !response.headers.has('Content-Encoding')
  ) {
    const encoding = chosenEncoding(String(req.headers['accept-encoding'] ?? ''));
    if (encoding) {
      body = await compress(body, encoding);
      headers['content-encoding'] = encoding;
    }
    headers.vary = [response.headers.get('Vary'), 'Accept-Encoding'].filter(Boolean).join(', ');
  }
  headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body);
}

/**
 * Writes an answer the rules made once (a refusal over the quota: service/rules/index.ts) exactly
 * as writeWebResponse writes the same Response: its headers in order, its length unless HEAD.
 * Too small to be worth compressing; a larger one goes the web Response's way.
 */
export function writePrepared(
  req: IncomingMessage,
  res: ServerResponse,
  prepared: PreparedAnswer,
): void | Promise<void> {
  const type = prepared.headers.find(([name]) => name === 'content-type')?.[1] ?? '';
  if (worthCompressing(type, prepared.body.length))
    return writeWebResponse(
      req,
      res,
      new Response(new Uint8Array(prepared.body), {
        status: prepared.status,
        headers: prepared.headers as [string, string][],
      }),
    );
  let lists = preparedLists.get(prepared);
  if (!lists) {
    const head = prepared.headers.flat();
    lists = { head, get: [...head, 'content-length', String(prepared.body.length)] };
    preparedLists.set(prepared, lists);
  }
  if (req.method === 'HEAD') {
    res.writeHead(prepared.status, lists.head);
    res.end();
    return;
  }
  res.writeHead(prepared.status, lists.get);
  res.end(prepared.body);
}

/** A prepared answer's headers as flat lists, for HEAD (no length, as for a web Response) and GET. */
const preparedLists = new WeakMap<PreparedAnswer, { head: string[]; get: string[] }>();

/**
 * Sends a function's answer (kept or just made) with the rules' headers where the function set
 * none and, when it comes from the cache, its Age, answering a matching If-None-Match with 304
 * and compressing when the client accepts it. The headers go to Node as one flat list, written
 * at once unless the compressed body is still being made; for rules' headers shared by every
 * request to a path, the list is made once per way of sending and filled in place (sentList).
 */
export function writeKeptResponse(
  req: IncomingMessage,
  res: ServerResponse,
  edge: EdgeCache,
  kept: KeptResponse,
  rules: RuleHeaders,
  age = 0,
): void | Promise<void> {
  const counted = rules.counted;
  // The shared headers with this request's rate-limit headers in their place (CountedHeaders).
  const rule = counted ? ruleList(kept, counted.shared, counted.after) : ruleList(kept, rules.headers, 0);
  const limits = counted ? limitsNotSet(kept, counted.limits) : noLimits;
  const etag = kept.headers.etag;
  if (etag && matchesEtag(req.headers['if-none-match'] ?? null, etag)) {
    const raw = headerList(kept, age, rule, limits);
    if (kept.headers.vary) raw.push('vary', kept.headers.vary);
    res.writeHead(304, notModifiedRaw(raw));
    res.end();
    return;
  }
  const encoded = edge.encodedBody(kept, req.headers['accept-encoding'] ?? '');
  // Written at once when the body for this encoding is made; else when it is.
  if (encoded instanceof Promise) return encoded.then((made) => sendKept(req, res, kept, age, rule, limits, made));
  sendKept(req, res, kept, age, rule, limits, encoded);
}

const noLimits: readonly string[] = Object.freeze([]);

/**
 * The answer's own headers (but length and Vary), its Age, and the rules' headers with the
 * rate-limit ones in their place; `places`, when given, learns where Age's value and the
 * rate-limit headers are.
 */
function headerList(
  kept: KeptResponse,
  age: number,
  { list, at }: KeptRuleList,
  limits: readonly string[],
  places?: { ageAt: number; limitsAt: number },
): string[] {
  const own = (kept.raw ??= Object.entries(kept.headers)
    .filter(([name]) => name !== 'content-length' && name !== 'vary')
    .flat());
  const raw: string[] = [];
  for (let i = 0; i < own.length; i += 1) raw.push(own[i]!);
  if (age > 0) {
    raw.push('age', ageText(age));
    if (places) places.ageAt = raw.length - 1;
  }
  for (let i = 0; i < at; i += 1) raw.push(list[i]!);
  if (places) places.limitsAt = raw.length;
  for (let i = 0; i < limits.length; i += 1) raw.push(limits[i]!);
  for (let i = at; i < list.length; i += 1) raw.push(list[i]!);
  return raw;
}

/** Ages in seconds as text, made once (a kept live answer is served for up to a minute). */
const ageTexts = Array.from({ length: 120 }, (_, seconds) => String(seconds));
const ageText = (seconds: number) => ageTexts[seconds] ?? String(seconds);

/**
 * This request's rate-limit headers but those the kept answer sets itself (which win); most set
 * none, and get the list as it is. A policy's lists of one length name the same headers
 * (rateLimitList), so whether the answer sets any is looked up once per length.
 */
function limitsNotSet(kept: KeptResponse, limits: readonly string[]): readonly string[] {
  const headers = kept.headers;
  if (kept.setsNoLimit?.length !== limits.length) {
    let none = true;
    for (let i = 0; i < limits.length && none; i += 2) none = !(lowerCase(limits[i]!) in headers);
    kept.setsNoLimit = { length: limits.length, none };
  }
  if (kept.setsNoLimit.none) return limits;
  const left: string[] = [];
  for (let i = 0; i < limits.length; i += 2)
    if (!(lowerCase(limits[i]!) in headers)) left.push(limits[i]!, limits[i + 1]!);
  return left;
}

/**
 * The rules' headers a kept answer does not set itself, as a flat list, and where in it the
 * first `after` names end; made once per answer for headers shared by every request to a path
 * (frozen).
 */
function ruleList(kept: KeptResponse, ruleHeaders: Readonly<Record<string, string>>, after: number): KeptRuleList {
  const shared = Object.isFrozen(ruleHeaders);
  const known = shared ? kept.ruleLists?.get(ruleHeaders) : undefined;
  if (known) return known;
  const list: string[] = [];
  let at = 0;
  let index = 0;
  for (const name in ruleHeaders) {
    if (!(lowerCase(name) in kept.headers)) list.push(name, ruleHeaders[name]!);
    index += 1;
    if (index === after) at = list.length;
  }
  const made: KeptRuleList = { list, at: after === 0 ? 0 : index < after ? list.length : at };
  if (shared) {
    made.sent = new Map();
    (kept.ruleLists ??= new WeakMap()).set(ruleHeaders, made);
  }
  return made;
}

function sendKept(
  req: IncomingMessage,
  res: ServerResponse,
  kept: KeptResponse,
  age: number,
  rule: KeptRuleList,
  limits: readonly string[],
  encoded: EncodedBody,
): void {
  res.writeHead(kept.status, sentList(kept, age, rule, limits, encoded));
  res.end(req.method === 'HEAD' ? undefined : encoded.body);
}

/**
 * The whole list of headers a kept answer is sent with in this encoding. For rules' headers
 * shared by every request to the path, made once per way of sending (encoding, with or without
 * Age, number of rate-limit headers) and then filled in place with this request's Age and
 * rate-limit headers, names and values: Node reads the list while writeHead runs and keeps none
 * of it, and a request's list is filled just before it is written.
 */
function sentList(
  kept: KeptResponse,
  age: number,
  rule: KeptRuleList,
  limits: readonly string[],
  { body, encoding }: EncodedBody,
): string[] {
  const way = ((limits.length * 2 + (age > 0 ? 1 : 0)) * 3 + (encoding === 'br' ? 1 : encoding === 'gzip' ? 2 : 0)) | 0;
  const known = rule.sent?.get(way);
  if (known) {
    const { raw, ageAt, limitsAt } = known;
    if (ageAt >= 0) raw[ageAt] = ageText(age);
    for (let i = 0; i < limits.length; i += 1) raw[limitsAt + i] = limits[i]!;
    return raw;
  }
  const places = { ageAt: -1, limitsAt: 0 };
  const raw = headerList(kept, age, rule, limits, places);
  const vary = encoding
    ? kept.headers.vary
      ? `${kept.headers.vary}, Accept-Encoding`
      : 'Accept-Encoding'
    : kept.headers.vary;
  if (vary) raw.push('vary', vary);
  if (encoding) raw.push('content-encoding', encoding);
  raw.push('content-length', String(body.length));
  rule.sent?.set(way, { raw, ...places });
  return raw;
}
