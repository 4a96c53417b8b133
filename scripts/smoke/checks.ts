/**
 * The request table every host must answer alike: each page, Markdown twin, agent file and /v1
 * operation, HEAD, CORS preflights, conditional requests, Markdown negotiation, a not-found on
 * every kind of path, the ids earlier releases of the peak dataset had and those releases' files,
 * the live endpoints, and the request that goes over the /v1 quota. Each row
 * says what a client must receive; `npm run smoke` checks one running site against it, and
 * tests/build/vercel.test.ts (through tests/helpers/two-hosts.ts) sends it to the Node host and
 * to the replayed Vercel output and compares what they answer.
 *
 * The table is built from the site itself (its /v1 lists and its published files), so it runs
 * against any deployment of any content.
 */
import { siteFiles } from '../../service/site-files.ts';
import { apiRateLimit } from '../../service/rules/policy.ts';
import { fileCachePolicy } from '../../service/host/static-routes.ts';
import { cachePolicy } from '../../service/http/cache-policy.ts';
import { peakDataFiles, releaseFilePath } from '../../domain/catalogue/peak-data-files.ts';

interface Expectation {
  status: number;
  /** Media type the answer must carry (with its parameters, when it names any). */
  type?: string;
  /** Cache-Control, exactly; `shared: false` only asks that no shared cache may keep it. */
  cache?: string | { shared: false };
  /** Request headers the answer must say it varies on. */
  vary?: readonly string[];
  /** The /v1 rate-limit headers. */
  rateLimit?: boolean;
  /** The /v1 error shape with this code. */
  errorCode?: string;
  /** The body names the sitemap, the developer page and llms.txt (the recovery note of a not-found). */
  recovery?: boolean;
  etag?: boolean;
  markdownTokens?: boolean;
  cors?: boolean;
}

export interface Check {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Send If-None-Match with the ETag the same request got just before. */
  conditional?: boolean;
  expect: Expectation;
}

const page = {
  status: 200,
  type: 'text/html; charset=utf-8',
  cache: cachePolicy.page,
  vary: ['Accept'],
  etag: true,
} as const;
const twin = { type: 'text/markdown; charset=utf-8', markdownTokens: true } as const;
const noStore = { shared: false } as const;
const catalogue = cachePolicy.catalogue;
const api = { type: 'application/json; charset=utf-8', rateLimit: true, cors: true } as const;

interface Listed {
  data: { slug?: string; id?: string; type?: string }[];
}

/** What the table reads of the published dataset: its version, and the ids earlier releases had. */
interface PublishedDataset {
  version: string;
  removedIds?: { id: string; lastIn: string; movedTo?: string }[];
}

async function publishedDataset(origin: string): Promise<PublishedDataset> {
  const response = await fetch(new URL(peakDataFiles.json.path, origin));
  if (!response.ok)
    throw new Error(`${peakDataFiles.json.path} answered ${response.status}: the table cannot be built`);
  return (await response.json()) as PublishedDataset;
}

async function listed(origin: string, path: string): Promise<Listed['data']> {
  const response = await fetch(new URL(path, origin), { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: the table cannot be built`);
  return ((await response.json()) as Listed).data;
}

/** Requests under /v1 made by building the table: they count against the quota too. */
const tableApiRequests = 2;

export async function requestTable(origin: string): Promise<Check[]> {
  const trips = await listed(origin, '/v1/trips');
  const peaks = await listed(origin, '/v1/peaks');
  const trip = trips[0]!;
  const tripPage = `/${trip.type === 'expedition' ? 'expeditions' : 'treks'}/${trip.slug}`;
  const checks: Check[] = [];
  const get = (name: string, path: string, expect: Expectation, headers?: Record<string, string>) =>
    checks.push({ name, method: 'GET', path, expect, ...(headers ? { headers } : {}) });

  for (const path of ['/', '/treks', '/expeditions', '/peak-data', '/developers', '/peak-data/by/altitude-asc'])
    get(`page ${path}`, path, page);
  for (const { slug, type } of trips)
    get(`trip page ${slug}`, `/${type === 'expedition' ? 'expeditions' : 'treks'}/${slug}`, page);
  checks.push({ name: 'HEAD page', method: 'HEAD', path: tripPage, expect: page });
  for (const path of ['/index.md', '/treks.md', '/expeditions.md', '/peak-data.md', '/developers.md'])
    get(`twin ${path}`, path, { status: 200, ...twin, cache: cachePolicy.page });
  get('trip twin', `${tripPage}.md`, { status: 200, ...twin });
  get('departures board', '/departures', { status: 200, type: 'text/html; charset=utf-8', vary: ['Accept'] });
  get('departures board, filtered', `/departures?type=${trip.type}&seats=1`, {
    status: 200,
    type: 'text/html; charset=utf-8',
    vary: ['Accept'],
  });
  get('departures.md, filtered', `/departures.md?type=${trip.type}&seats=1`, {
    status: 200,
    type: 'text/markdown; charset=utf-8',
  });
  get('departures block of a trip', `/departures/block?trip=${trip.slug}`, {
    status: 200,
    type: 'text/html; charset=utf-8',
  });
  get('enquiry form of a trip', `${tripPage}/enquire`, { status: 200, type: 'text/html; charset=utf-8' });
  get('departures calendar', '/departures.ics', { status: 200, type: 'text/calendar; charset=utf-8' });
  get('Markdown asked of /', '/', { status: 200, ...twin, vary: ['Accept'] }, { Accept: 'text/markdown' });
  get(
    'Markdown asked of a trip page',
    tripPage,
    { status: 200, ...twin, vary: ['Accept'] },
    { Accept: 'text/markdown' },
  );

  for (const file of siteFiles) {
    for (const path of [file.path, ...(file.aliases ?? [])]) {
      get(`agent file ${path}`, path, {
        status: 200,
        type: file.mediaType,
        cors: true,
        ...(file.live ? {} : { cache: fileCachePolicy(path), etag: true }),
      });
    }
  }
  checks.push({
    name: 'preflight of an agent file',
    method: 'OPTIONS',
    path: '/llms.txt',
    headers: { Origin: 'https://agent.example', 'Access-Control-Request-Method': 'GET' },
    expect: { status: 204, cors: true },
  });

  get('/v1 service index', '/v1/', { status: 200, ...api, cache: catalogue, vary: ['Accept'], etag: true });
  get('/v1 trips', '/v1/trips', { status: 200, ...api, cache: catalogue, vary: ['Accept'], etag: true });
  get('/v1 one trip', `/v1/trips/${trip.slug}`, {
    status: 200,
    ...api,
    cache: catalogue,
    vary: ['Accept'],
    etag: true,
  });
  get('/v1 peaks', '/v1/peaks', { status: 200, ...api, cache: catalogue, vary: ['Accept'], etag: true });
  get('/v1 one peak', `/v1/peaks/${peaks[0]!.id}`, {
    status: 200,
    ...api,
    cache: catalogue,
    vary: ['Accept'],
    etag: true,
  });
  get('/v1 filtered trips', '/v1/trips?type=trek', { status: 200, ...api, cache: catalogue, etag: true });
  get('/v1 departures', `/v1/departures?trip=${trip.slug}`, {
    status: 200,
    ...api,
    cache: cachePolicy.departures,
    etag: true,
  });
  checks.push({
    name: 'HEAD /v1 trips',
    method: 'HEAD',
    path: '/v1/trips',
    expect: { status: 200, ...api, cache: catalogue, etag: true },
  });
  checks.push({
    name: '/v1 preflight',
    method: 'OPTIONS',
    path: '/v1/trips',
    headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET' },
    expect: { status: 204, rateLimit: true, cors: true },
  });
  get('/v1 unknown trip', '/v1/trips/no-such-trip', {
    status: 404,
    ...api,
    cache: noStore,
    errorCode: 'trip_not_found',
  });
  get('/v1 unknown peak', '/v1/peaks/no-such-peak', {
    status: 404,
    ...api,
    cache: noStore,
    errorCode: 'peak_not_found',
  });
  // Ids stay: an id an earlier release had says where the peak went, and that release's files stay at their own address.
  const dataset = await publishedDataset(origin);
  for (const removed of dataset.removedIds ?? [])
    get(`/v1 peak id of release ${removed.lastIn}`, `/v1/peaks/${removed.id}`, {
      status: removed.movedTo ? 301 : 410,
      ...api,
      cache: noStore,
      errorCode: removed.movedTo ? 'peak_moved' : 'peak_removed',
    });
  for (const version of new Set([dataset.version, ...(dataset.removedIds ?? []).map((r) => r.lastIn)])) {
    const path = releaseFilePath(version, peakDataFiles.json.name);
    get(`peak dataset ${version}`, path, {
      status: 200,
      type: peakDataFiles.json.mediaType,
      cors: true,
      cache: fileCachePolicy(path),
      etag: true,
    });
  }
  get('/v1 unknown endpoint', '/v1/nothing-here', {
    status: 404,
    ...api,
    cache: noStore,
    errorCode: 'endpoint_not_found',
  });
  get('/v1 bad parameter', '/v1/trips?difficulty=impossible', {
    status: 400,
    ...api,
    cache: noStore,
    errorCode: 'invalid_parameter',
  });
  get(
    '/v1 not JSON',
    '/v1/trips',
    { status: 406, ...api, cache: noStore, errorCode: 'not_acceptable' },
    { Accept: 'text/html' },
  );
  checks.push({
    name: '/v1 POST',
    method: 'POST',
    path: '/v1/trips',
    body: '{}',
    headers: { 'Content-Type': 'application/json' },
    expect: { status: 405, ...api, cache: noStore, errorCode: 'method_not_allowed' },
  });

  for (const [name, path] of [
    ['page', tripPage],
    ['twin', '/index.md'],
    ['agent file', '/llms.txt'],
    ['/v1 file', '/v1/trips'],
    ['/v1 query', '/v1/trips?type=trek'],
    ['/v1 departures', `/v1/departures?trip=${trip.slug}`],
  ] as const) {
    checks.push({
      name: `If-None-Match, ${name}`,
      method: 'GET',
      path,
      conditional: true,
      expect: { status: 304, etag: true },
    });
  }

  const notFoundPage = { status: 404, type: 'text/html; charset=utf-8', cache: noStore } as const;
  const notFoundNote = { status: 404, type: 'text/markdown; charset=utf-8', cache: noStore } as const;
  get('missing page', '/no-such-page', notFoundPage);
  get('missing page, nested', '/guides/no-such-page', notFoundPage);
  get('missing Markdown file', '/no-such-page.md', notFoundNote);
  // The Vercel Build Output publishes the note there for its error routes; asked for, it names nothing.
  get('the Markdown note of the Vercel error routes', '/api/not-found.md', notFoundNote);
  get('missing page asked as Markdown', '/no-such-page', notFoundNote, { Accept: 'text/markdown' });
  get('missing asset', '/_astro/no-such-file.css', notFoundPage);
  get('missing image', '/images/social/no-such-trip.png', notFoundPage);
  get('missing agent file', '/.well-known/no-such-file', notFoundPage);
  get('missing trip page', '/treks/no-such-trek', notFoundPage);
  // Every address is lower case: another case names nothing, and gets the not-found Accept asks for.
  get('wrong-case API path', '/V1/TRIPS', { ...notFoundPage, recovery: true });
  get(
    'wrong-case API path asked as Markdown',
    '/V1/TRIPS',
    { ...notFoundNote, recovery: true },
    { Accept: 'text/markdown' },
  );
  get('wrong-case file', '/LLMS.TXT', { ...notFoundPage, recovery: true });
  get(
    'wrong-case file asked as Markdown',
    '/LLMS.TXT',
    { ...notFoundNote, recovery: true },
    { Accept: 'text/markdown' },
  );
  get('wrong-case live path', '/ENQUIRY-SENT', { ...notFoundPage, recovery: true });
  get(
    'wrong-case trip page asked as Markdown',
    tripPage.toUpperCase(),
    { ...notFoundNote, recovery: true },
    { Accept: 'text/markdown' },
  );

  checks.push({
    name: 'booking enquiry without fields',
    method: 'POST',
    path: '/api/bookings',
    body: '',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    expect: { status: 400, cache: noStore },
  });
  checks.push({
    name: 'token request without a grant',
    method: 'POST',
    path: '/oauth/token',
    body: 'grant_type=password',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    expect: { status: 400, type: 'application/json', cache: noStore },
  });
  checks.push({
    name: 'MCP initialize',
    method: 'POST',
    path: '/mcp',
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'smoke', version: '1' } },
    }),
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    expect: { status: 200 },
  });
  return checks;
}

/** The /v1 requests a table makes (the conditional ones twice), the table's own two included. */
export function apiRequestsIn(checks: readonly Check[]): number {
  return (
    tableApiRequests + checks.filter((c) => c.path.startsWith('/v1')).reduce((n, c) => n + (c.conditional ? 2 : 1), 0)
  );
}

/** The request that goes over the quota, after filling the window up to it. */
export function quotaCheck(): Check {
  return {
    name: `/v1 request ${apiRateLimit.requests + 1} in a window`,
    method: 'GET',
    path: '/v1/trips',
    expect: { status: 429, ...api, cache: noStore, errorCode: 'rate_limited' },
  };
}

export interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

export async function send(origin: string, check: Check, etag?: string | null): Promise<Answer> {
  const headers = new Headers(check.headers);
  if (etag) headers.set('If-None-Match', etag);
  const response = await fetch(new URL(check.path, origin), {
    method: check.method,
    headers,
    ...(check.body !== undefined ? { body: check.body } : {}),
    redirect: 'manual',
  });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** Sends a check, with its warm-up request first when it is conditional. */
export async function run(origin: string, check: Check): Promise<Answer> {
  if (!check.conditional) return send(origin, check);
  const first = await send(origin, check);
  return send(origin, check, first.headers.get('etag'));
}

function varyOf(headers: Headers): string[] {
  // Accept-Encoding is the transport's: each host compresses by its own rule.
  return (headers.get('vary') ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter((v) => v && v !== 'accept-encoding')
    .sort();
}

function errorCodeOf(answer: Answer): string | null {
  try {
    const body = JSON.parse(answer.body) as { error?: { code?: unknown; status?: unknown } };
    return typeof body.error?.code === 'string' && body.error.status === answer.status ? body.error.code : null;
  } catch {
    return null;
  }
}

/** What a check found wrong with an answer: one line per failed expectation. */
export function problems(check: Check, answer: Answer): string[] {
  const found: string[] = [];
  const { expect } = check;
  const header = (name: string) => answer.headers.get(name);
  if (answer.status !== expect.status) found.push(`status ${answer.status}, expected ${expect.status}`);
  // A type declared without parameters is met by the same type with a charset.
  const type = header('content-type') ?? '';
  if (expect.type && (expect.type.includes(';') ? type !== expect.type : type.split(';')[0] !== expect.type))
    found.push(`Content-Type ${type || '(none)'}, expected ${expect.type}`);
  const cache = header('cache-control');
  if (typeof expect.cache === 'string' && cache !== expect.cache)
    found.push(`Cache-Control ${cache}, expected ${expect.cache}`);
  if (typeof expect.cache === 'object' && !/no-store|private|no-cache|max-age=0/.test(cache ?? ''))
    found.push(`Cache-Control ${cache} lets a shared cache keep an error`);
  if (typeof expect.cache === 'object' && /s-maxage=[1-9]/.test(cache ?? ''))
    found.push(`Cache-Control ${cache} gives an error a shared lifetime`);
  for (const name of expect.vary ?? [])
    if (!varyOf(answer.headers).includes(name.toLowerCase())) found.push(`Vary ${header('vary')} lacks ${name}`);
  if (expect.rateLimit && (!header('ratelimit-policy') || !header('ratelimit-remaining')))
    found.push('rate-limit headers missing');
  if (expect.etag && !header('etag')) found.push('no ETag');
  // RFC 9110 §15.4.5: a 304 carries no representation metadata (service/http/not-modified.ts).
  if (answer.status === 304 && header('content-type') !== null)
    found.push(`a 304 with Content-Type ${header('content-type')}`);
  if (expect.markdownTokens && !/^\d+$/.test(header('x-markdown-tokens') ?? '')) found.push('no X-Markdown-Tokens');
  if (expect.cors && header('access-control-allow-origin') !== '*') found.push('no CORS');
  if (expect.errorCode && errorCodeOf(answer) !== expect.errorCode)
    found.push(`error shape: ${answer.body.slice(0, 120)}, expected code ${expect.errorCode}`);
  if (expect.recovery)
    for (const named of ['/sitemap-index.xml', '/developers', '/llms.txt'])
      if (!answer.body.includes(named)) found.push(`the not-found answer does not name ${named}`);
  return found;
}

/** What two hosts' answers to one check must share, as text, field by field. */
export function comparable(answer: Answer): Record<string, string> {
  const header = (name: string) => answer.headers.get(name) ?? '(none)';
  return {
    status: String(answer.status),
    'content-type': header('content-type'),
    'cache-control': header('cache-control'),
    etag: answer.headers.has('etag') ? '(present)' : '(none)',
    vary: varyOf(answer.headers).join(', ') || '(none)',
    'ratelimit-policy': header('ratelimit-policy'),
    'ratelimit-limit': header('ratelimit-limit'),
    'ratelimit-remaining': header('ratelimit-remaining'),
    'retry-after': answer.headers.has('retry-after') ? '(present)' : '(none)',
    'x-markdown-tokens': header('x-markdown-tokens'),
    'access-control-allow-origin': header('access-control-allow-origin'),
    link: header('link'),
    'error code': errorCodeOf(answer) ?? '(none)',
  };
}
