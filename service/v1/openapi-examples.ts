/**
 * Examples for the OpenAPI document, taken from the API itself: each one is what the handler
 * (or the rate-limit rule) answers to a real request against the catalogue, so an example can
 * never show a message, hint or field the API does not send.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { seedDepartures } from '../departures/seed.ts';
import type { DepartureSource } from '../departures/source.ts';
import { errorCodes, type ErrorCode } from '../http/errors.ts';
import { applyRules } from '../rules/index.ts';
import { apiRateLimit } from '../rules/policy.ts';
import { createRateLimiter, rateLimitHeaders, type CounterStore } from '../rules/rate-limiter.ts';
import { handleV1 } from './index.ts';
import type { Operation, V1Deps } from './operations.ts';

export interface Example {
  summary: string;
  value: unknown;
}

/** How many items a list example keeps; the full lists are a request away. */
const listExampleLength = 2;

const seeded = new WeakMap<Catalogue, DepartureSource>();

/**
 * Departures as a fresh store shows them, dated from the dataset's last update so the
 * document is the same on every build. Seeded once per catalogue: every example reads them,
 * and seeding a large catalogue takes a while.
 */
function exampleDepartures(catalogue: Catalogue): DepartureSource {
  let source = seeded.get(catalogue);
  if (!source) {
    const rows = seedDepartures(catalogue, new Date(`${catalogue.site.dataset.lastUpdated}T00:00:00Z`));
    source = {
      listPublished: async (filter) =>
        rows.filter((row) => row.published && (filter?.tripSlug === undefined || row.tripSlug === filter.tripSlug)),
    };
    seeded.set(catalogue, source);
  }
  return source;
}

const unreadableStorage: DepartureSource = {
  listPublished: () => Promise.reject(new Error('storage unreachable')),
};

const quiet = () => {};

function depsFor(catalogue: Catalogue, departures: DepartureSource | null): V1Deps {
  return { catalogue, departures, log: quiet };
}

async function bodyOf(request: Request, deps: V1Deps): Promise<unknown> {
  return (await handleV1(request, deps)).json();
}

/** The operation's path with its path parameter filled in. */
function pathOf(op: Operation, value: string): string {
  return op.pathParam ? op.path.replace(`{${op.pathParam.name}}`, encodeURIComponent(value)) : op.path;
}

function apiUrl(catalogue: Catalogue, path: string, query = ''): string {
  return `${catalogue.siteUrl}/v1${path}${query}`;
}

export async function successExample(op: Operation, catalogue: Catalogue): Promise<Example | undefined> {
  const value = op.pathParam ? op.pathParam.example(catalogue) : '';
  if (value === undefined) return undefined;
  const body = await bodyOf(
    new Request(apiUrl(catalogue, pathOf(op, value))),
    depsFor(catalogue, exampleDepartures(catalogue)),
  );
  const list = body as { object?: string; count?: number; data?: unknown[] };
  if (list.object === 'list' && Array.isArray(list.data) && list.data.length > listExampleLength) {
    const data = list.data.slice(0, listExampleLength);
    return { summary: `The first ${data.length} items of the list`, value: { ...list, count: data.length, data } };
  }
  return { summary: `GET ${pathOf(op, value)}`, value: body };
}

/** The catalogue as a handler would see it if reading it failed: the trips cannot be read. */
function unreadableCatalogue(catalogue: Catalogue): Catalogue {
  return Object.create(catalogue, {
    trips: {
      get() {
        throw new Error('catalogue unreadable');
      },
    },
  }) as Catalogue;
}

/** Requests that make the operation answer with `code`, each with a one-line summary. */
function errorRequests(
  op: Operation,
  code: ErrorCode,
  catalogue: Catalogue,
): { summary: string; request: Request; departures: DepartureSource | null; catalogue?: Catalogue }[] {
  const departures = exampleDepartures(catalogue);
  const at = (query: string) => new Request(apiUrl(catalogue, op.path, query));
  switch (code) {
    case 'invalid_parameter':
      return [
        ...Object.keys(op.query).map((name) => ({
          summary: `An invalid value for ${name}`,
          request: at(`?${name}=%21`),
          departures,
        })),
        ...(op.ruleBreaking ?? []).map(({ summary, query }) => ({ summary, request: at(query), departures })),
        { summary: 'An unknown parameter', request: at('?colour=red'), departures },
      ];
    case 'trip_not_found':
    case 'peak_not_found':
      return [
        {
          summary: 'An identifier nothing has',
          request: new Request(apiUrl(catalogue, pathOf(op, 'does-not-exist'))),
          departures,
        },
      ];
    case 'peak_removed':
    case 'peak_moved': {
      // An id an earlier release had, when the dataset has one of that kind.
      const removed = catalogue.site.dataset.removedIds?.find((r) => (code === 'peak_moved') === !!r.movedTo);
      return removed
        ? [
            {
              summary: code === 'peak_moved' ? 'An id the same peak had before' : 'An id an earlier release had',
              request: new Request(apiUrl(catalogue, pathOf(op, removed.id))),
              departures,
            },
          ]
        : [];
    }
    case 'departures_unavailable':
      return [{ summary: 'A deployment without operational storage', request: at(''), departures: null }];
    case 'departures_upstream_error':
      return [{ summary: 'Operational storage does not answer', request: at(''), departures: unreadableStorage }];
    case 'endpoint_not_found':
      return [
        { summary: 'A path with no endpoint', request: new Request(apiUrl(catalogue, '/does-not-exist')), departures },
      ];
    case 'method_not_allowed':
      return [
        {
          summary: 'A POST to a read-only operation',
          request: new Request(apiUrl(catalogue, '/trips'), { method: 'POST' }),
          departures,
        },
      ];
    case 'not_acceptable':
      return [
        {
          summary: 'Accept: application/xml',
          request: new Request(apiUrl(catalogue, '/trips'), { headers: { Accept: 'application/xml' } }),
          departures,
        },
      ];
    case 'internal_error':
      return [
        {
          summary: 'A failure on the server side',
          request: new Request(apiUrl(catalogue, '/trips')),
          departures,
          catalogue: unreadableCatalogue(catalogue),
        },
      ];
    case 'rate_limited':
      return [];
  }
}

/** Example bodies for one error code of an operation, keyed for an OpenAPI `examples` map. */
export async function errorExamples(
  op: Operation,
  code: ErrorCode,
  catalogue: Catalogue,
): Promise<Record<string, Example>> {
  const examples: Record<string, Example> = {};
  const requests = errorRequests(op, code, catalogue);
  for (const [index, { summary, request, departures, catalogue: seen }] of requests.entries()) {
    const body = await bodyOf(request, depsFor(seen ?? catalogue, departures));
    examples[requests.length > 1 ? `${code}_${index + 1}` : code] = { summary, value: body };
  }
  return examples;
}

/** A counter store that reports the quota as used up, `resetSeconds` before the window ends. */
function exhaustedStore(resetSeconds: number): CounterStore {
  return { hit: async () => ({ count: apiRateLimit.requests + 1, resetMs: resetSeconds * 1000 }) };
}

/** The 429 the request rules answer once a client's quota is used up. */
export async function rateLimitedExample(
  catalogue: Catalogue,
): Promise<{ example: Example; headers: Record<string, string> }> {
  const outcome = await applyRules(new Request(apiUrl(catalogue, '/trips')), {
    siteUrl: catalogue.siteUrl,
    apiLimiter: createRateLimiter(apiRateLimit, exhaustedStore(42)),
    trustProxy: 'none',
    socketAddress: '203.0.113.7',
  });
  if (outcome.kind !== 'respond' || outcome.response.status !== errorCodes.rate_limited) {
    throw new Error('the request rules did not answer 429 to an exhausted quota');
  }
  return {
    example: { summary: 'The quota is used up', value: await outcome.response.json() },
    headers: Object.fromEntries(outcome.response.headers),
  };
}

/** Rate-limit header values of an allowed request: the client's first in a fresh window. */
export function allowedRateLimitHeaders(): Record<string, string> {
  return rateLimitHeaders(apiRateLimit, {
    allowed: true,
    limit: apiRateLimit.requests,
    remaining: apiRateLimit.requests - 1,
    resetSeconds: apiRateLimit.windowSeconds,
  });
}
