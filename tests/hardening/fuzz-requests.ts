/**
 * Random and malformed requests for the fuzz test, from a seeded generator so a failure can be
 * replayed: paths (unicode, valid and broken %-escapes, dot segments, `//`, very long), query
 * strings, methods (unknown tokens, lower case, ones a web Request cannot carry), headers
 * (huge, repeated, invalid), bodies and their framing (chunked garbage, wrong Content-Length).
 * Each request says whether it is well-formed HTTP/1.1, which decides what may answer it.
 */

/** mulberry32: small, fast, deterministic. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface FuzzRequest {
  method: string;
  target: string;
  headers: [string, string][];
  body: Buffer;
  /** How the body is framed on the wire. */
  framing: 'none' | 'length' | 'chunked' | 'chunked-garbage' | 'length-short' | 'length-long';
  /** True when every part is valid HTTP/1.1 that Node's parser accepts. */
  wellFormed: boolean;
  /** Send with fetch rather than a raw socket. */
  viaFetch: boolean;
}

const targets = [
  '/',
  '/treks',
  '/treks/sample-trek',
  '/treks/sample-trek.md',
  '/expeditions/sample-expedition',
  '/departures',
  '/departures.md',
  '/developers',
  '/peak-data/',
  '/index.md',
  '/llms.txt',
  '/openapi.json',
  '/.well-known/api-catalog',
  '/_astro/',
  '/treks/sample-trek.ics',
  '/v1',
  '/v1/',
  '/v1/trips',
  '/v1/trips/sample-trek',
  '/v1/peaks',
  '/v1/peaks/sample-peak',
  '/v1/departures',
  '/api/bookings',
  '/mcp',
  '/agent/auth',
  '/agent/identity',
  '/agent/identity/claim',
  '/agent/claim',
  '/agent/credential',
  '/agent/event/notify',
  '/oauth/token',
  '/oauth/revoke',
  '/.well-known/oauth-authorization-server',
  '/auth.md',
];
const apiWeight = 0.35;

const knownMethods = [
  'GET',
  'GET',
  'GET',
  'GET',
  'HEAD',
  'POST',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
  'TRACE',
  'PROPFIND',
  'PURGE',
  'M-SEARCH',
];
const unknownMethods = ['BREW', 'FOO', 'get', 'post', 'Get', 'X-CUSTOM', 'QUERY2', 'CONNECT'];
const brokenMethods = ['G ET', 'GET\x01', 'GÉT', '', '(GET)'];

const brokenEscapes = [
  '%',
  '%zz',
  '%E0%A4%A',
  '%FF',
  '%FE%FF',
  '%00',
  '%2F',
  '%2e%2e',
  '%2E',
  '%5C',
  '%%',
  '%u0041',
  '%C0%AF',
];
const oddSegments = [
  '.',
  '..',
  '...',
  '',
  '~',
  ';x=1',
  '@',
  ':',
  '*',
  '\\',
  '{}',
  '|',
  '^',
  '`',
  '[a]',
  "'",
  '"',
  '<x>',
];

function pick<T>(r: () => number, items: readonly T[]): T {
  return items[Math.floor(r() * items.length)]!;
}

function unicodeText(r: () => number, max: number): string {
  const ranges = [
    [0x20, 0x7e],
    [0xa0, 0x2ff],
    [0x900, 0x97f], // Devanagari
    [0x4e00, 0x4fff],
    [0x1f300, 0x1f64f], // emoji
  ] as const;
  let text = '';
  const length = 1 + Math.floor(r() * max);
  for (let i = 0; i < length; i += 1) {
    const [lo, hi] = pick(r, ranges);
    text += String.fromCodePoint(lo + Math.floor(r() * (hi - lo + 1)));
  }
  return text;
}

/** A path segment and whether it stays valid on the wire. */
function segment(r: () => number): [string, boolean] {
  const kind = r();
  if (kind < 0.25)
    return [pick(r, ['sample-trek', 'sample-peak', 'trips', 'peaks', 'x', 'index.md', 'a.b', 'UPPER'] as const), true];
  if (kind < 0.4) return [encodeURIComponent(unicodeText(r, 8)), true];
  if (kind < 0.5) return [unicodeText(r, 6), false]; // raw UTF-8 bytes: not a valid request-target
  if (kind < 0.65) return [pick(r, brokenEscapes), true];
  if (kind < 0.85) {
    const odd = pick(r, oddSegments);
    return [odd, !/[\\{}|^`<>"]/.test(odd)];
  }
  return ['p'.repeat(200 + Math.floor(r() * 9000)), true];
}

function query(r: () => number): [string, boolean] {
  if (r() < 0.5) return ['', true];
  const names = [
    'type',
    'maxPriceInr',
    'trip',
    'openPeak',
    'region',
    'difficulty',
    'q',
    '',
    '%zz',
    'a[]',
    'x'.repeat(300),
  ];
  const values = [
    'trek',
    'expedition',
    '1',
    '-1',
    '1e9',
    'true',
    'maybe',
    '',
    '%',
    '%zz',
    '%E0%A4%A',
    '+',
    '%26',
    '=',
    'v'.repeat(2000),
  ];
  const pairs: string[] = [];
  let valid = true;
  const count = Math.floor(r() * 5);
  for (let i = 0; i < count; i += 1) {
    let value = pick(r, values);
    if (r() < 0.15) {
      value = unicodeText(r, 5);
      if (r() < 0.5) value = encodeURIComponent(value);
      else valid = false;
    }
    pairs.push(r() < 0.1 ? pick(r, names) : `${pick(r, names)}=${value}`);
  }
  return [`?${pairs.join(r() < 0.1 ? '&&' : '&')}`, valid];
}

function printableValue(r: () => number, max: number): string {
  let text = '';
  const length = Math.floor(r() * max);
  for (let i = 0; i < length; i += 1) text += String.fromCharCode(0x21 + Math.floor(r() * 94));
  return text;
}

/** One random request; `forFetch` keeps to what fetch can send. */
export function fuzzRequest(r: () => number, forFetch = false): FuzzRequest {
  let wellFormed = true;
  let base =
    r() < apiWeight
      ? pick(
          r,
          targets.filter((t) => t.startsWith('/v1')),
        )
      : pick(r, targets);
  const segments = Math.floor(r() * 3);
  for (let i = 0; i < segments; i += 1) {
    const [text, valid] = segment(r);
    base += `${base.endsWith('/') ? '' : '/'}${text}`;
    wellFormed &&= valid;
  }
  if (r() < 0.1) base = `/${base}`; // `//v1/...`
  const [search, searchValid] = query(r);
  wellFormed &&= searchValid;

  let method = pick(r, knownMethods);
  if (!forFetch && r() < 0.12) method = pick(r, unknownMethods);
  if (!forFetch && r() < 0.03) {
    method = pick(r, brokenMethods);
    wellFormed = false;
  }
  if (forFetch && (method === 'TRACE' || method === 'M-SEARCH')) method = 'GET';

  const headers: [string, string][] = [['Host', '127.0.0.1']];
  const add = (name: string, value: string) => headers.push([name, value]);
  if (r() < 0.5)
    add(
      'Accept',
      pick(r, [
        '*/*',
        'application/json',
        'text/markdown',
        'text/html',
        'application/json;q=0',
        ';;,,',
        'text/*;q=abc',
        '*/*;q=0',
        'image/png',
      ]),
    );
  if (r() < 0.2) add('If-None-Match', pick(r, ['*', 'W/"x"', '"0"', ',,', `"${'a'.repeat(4000)}"`, 'not-quoted']));
  if (r() < 0.2) add('Accept-Encoding', pick(r, ['br', 'gzip', 'identity;q=0', 'gzip;q=0, br;q=0', 'x-unknown', '*']));
  if (r() < 0.15) add('Authorization', pick(r, ['Bearer abc', 'Bearer ', `Bearer ${'t'.repeat(3000)}`, 'Basic !!!']));
  if (r() < 0.1) add('Cookie', printableValue(r, 2000));
  if (r() < 0.1) for (let i = 0; i < 1 + Math.floor(r() * 80); i += 1) add(`X-Many-${i}`, printableValue(r, 20));
  if (r() < 0.05) {
    add('X-Repeat', 'a');
    add('X-Repeat', 'b');
  }
  if (r() < 0.05) add('Origin', pick(r, ['http://evil.test', 'null', 'http://127.0.0.1']));
  if (!forFetch) {
    if (r() < 0.04) {
      add('X-Huge', 'h'.repeat(17_000 + Math.floor(r() * 30_000))); // above Node's 16 KB: 431
      wellFormed = false;
    }
    if (r() < 0.03) {
      add(pick(r, ['Bad Header', 'Bad:Colon', 'Ünicode', '']), 'x');
      wellFormed = false;
    }
    if (r() < 0.03) {
      add('X-Control', `a\x01b\x7f`);
      wellFormed = false;
    }
    if (r() < 0.03) {
      add('Host', 'second.example');
      wellFormed = false;
    }
  }

  // Bodies: none, exact, chunked, and the broken framings only a raw socket can send.
  let body = Buffer.alloc(0);
  let framing: FuzzRequest['framing'] = 'none';
  if (method !== 'GET' && method !== 'HEAD' ? r() < 0.8 : r() < 0.08) {
    const size = pick(r, [0, 2, 40, 300, 5000, 20_000, 70_000]);
    const text =
      r() < 0.5
        ? JSON.stringify({
            tripSlug: 'sample-trek',
            name: unicodeText(r, 10),
            groupSize: 2,
            phone: '+91 98765 43210',
            pad: 'z'.repeat(size),
          })
        : printableValue(r, size);
    body = Buffer.from(text, 'utf8');
    add(
      'Content-Type',
      pick(r, [
        'application/json',
        'application/x-www-form-urlencoded',
        'text/plain',
        'application/json; charset=utf-16',
        'multipart/form-data',
        'application/secevent+jwt',
        'garbage',
      ]),
    );
    const f = forFetch
      ? 'length'
      : pick(r, [
          'length',
          'length',
          'length',
          'chunked',
          'chunked',
          'chunked-garbage',
          'length-short',
          'length-long',
        ] as const);
    framing = f;
    if (f === 'length') add('Content-Length', String(body.length));
    if (f === 'length-short') add('Content-Length', String(Math.max(0, body.length - 7)));
    if (f === 'length-long') add('Content-Length', String(body.length + 1000));
    if (f === 'chunked' || f === 'chunked-garbage') add('Transfer-Encoding', 'chunked');
    if (f === 'chunked-garbage' || f === 'length-short' || f === 'length-long') wellFormed = false;
    if (!forFetch && r() < 0.05) {
      add('Content-Length', String(body.length + 1)); // conflicting lengths
      wellFormed = false;
    }
  }
  if (!forFetch && r() < 0.85) add('Connection', 'close');
  const target = `${base}${search}`;
  // Node refuses a request line and headers above 16 KB in all (431), however valid each part is.
  const headSize = Buffer.byteLength(
    `${method} ${target} HTTP/1.1\r\n${headers.map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n`,
  );
  if (headSize > 16 * 1024 - 512) wellFormed = false;
  return { method, target, headers, body, framing, wellFormed, viaFetch: forFetch };
}

/** The body bytes as they go on the wire for the request's framing. */
export function wireBody(request: FuzzRequest, r: () => number): Buffer {
  const { body, framing } = request;
  if (framing === 'chunked') {
    const pieces: Buffer[] = [];
    for (let at = 0; at < body.length;) {
      const size = 1 + Math.floor(r() * 8000);
      const piece = body.subarray(at, at + size);
      pieces.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
      at += size;
    }
    pieces.push(Buffer.from('0\r\n\r\n'));
    return Buffer.concat(pieces);
  }
  if (framing === 'chunked-garbage')
    return Buffer.concat([
      Buffer.from(pick(r, ['zz\r\n', '-1\r\n', 'ffffffffffffffffff\r\n', '5\r\nabc\r\n', '3;x=\x01\r\nabc\r\n'])),
      body,
    ]);
  return body;
}
