/**
 * What the request rules decide for a request (a RulesOutcome): answer it here, or let it go on
 * to a file or a function with headers to add. Two outcomes are made so that a host writes them
 * without an object per request: a counted /v1 request's headers in two parts (the path's shared
 * ones and this request's rate-limit headers), and the refusal over the quota, made once per
 * site, kind of answer and wait.
 */
import { errorAnswer, ApiError } from '../http/errors.ts';
import { memoise } from '../http/bounded-memo.ts';
import { apiRateLimit } from './policy.ts';
import { rateLimitHeaders, rateLimitList, type RateLimitDecision } from './rate-limiter.ts';
import { apiBaseCount, corsHeaders, kinds, type SecurityKind } from './rule-headers.ts';

/**
 * An answer the rules give that is the same for every request it is given to (a refusal over the
 * quota, for a given reset time): its status, headers (in the order a web Response lists them)
 * and body, made once, for a host that writes them as they are (service/host/request-handler.ts).
 */
export interface PreparedAnswer {
  status: number;
  headers: readonly (readonly [string, string])[];
  body: Buffer;
}

export type RulesOutcome =
  | { kind: 'respond'; response: Response; prepared?: PreparedAnswer }
  /** Go on to a file or a function, at `pathname` (a rewrite when it differs), adding `headers` (read only: often shared by every request to the path). */
  | { kind: 'continue'; pathname: string; headers: Readonly<Record<string, string>>; counted?: CountedHeaders };

/** The headers an outcome adds, as a host reads them: whole, or in two parts for a counted /v1 request. */
export type RuleHeaders = Pick<Extract<RulesOutcome, { kind: 'continue' }>, 'headers' | 'counted'>;

/**
 * The headers of a counted /v1 request in two parts, for a host that writes them without an
 * object per request: `headers` is `shared` with `limits` inserted after its first `after`
 * names (the security and CORS headers). `shared` is the same for every request to the path
 * (frozen); `limits` are this request's rate-limit headers, a flat name, value list.
 */
interface CountedHeaders {
  shared: Readonly<Record<string, string>>;
  after: number;
  limits: readonly string[];
}

/** Go on to `pathname`, adding `headers`. */
export function onward(pathname: string, headers: Readonly<Record<string, string>>): RulesOutcome {
  return { kind: 'continue', pathname, headers };
}

/** Answer with `response`. */
export function answered(response: Response): RulesOutcome {
  return { kind: 'respond', response };
}

/** A request's rate-limit headers as an object (none when it was not counted). */
export function limitHeaders(decision: RateLimitDecision | null): Record<string, string> {
  return decision ? rateLimitHeaders(apiRateLimit, decision) : {};
}

const noLimits: readonly string[] = Object.freeze([]);

/** A /v1 request on to `pathname` with `shared` headers and its own rate-limit headers after the security and CORS ones. */
export function counted(
  pathname: string,
  shared: Readonly<Record<string, string>>,
  decision: RateLimitDecision | null,
): RulesOutcome {
  return new CountedOutcome(pathname, shared, decision ? rateLimitList(apiRateLimit, decision) : noLimits);
}

/** A counted /v1 request going on: its headers whole are made only for a reader that wants them so (Vercel's middleware, a function's web Response). */
class CountedOutcome {
  readonly kind = 'continue';
  readonly pathname: string;
  readonly counted: CountedHeaders;
  #headers: Record<string, string> | undefined;

  constructor(pathname: string, shared: Readonly<Record<string, string>>, limits: readonly string[]) {
    this.pathname = pathname;
    this.counted = { shared, after: apiBaseCount, limits };
  }

  get headers(): Readonly<Record<string, string>> {
    if (!this.#headers) {
      const { shared, limits } = this.counted;
      const entries = Object.entries(shared);
      const headers: Record<string, string> = {};
      for (const [name, value] of entries.slice(0, apiBaseCount)) headers[name] = value;
      for (let i = 0; i < limits.length; i += 2) headers[limits[i]!] = limits[i + 1]!;
      for (const [name, value] of entries.slice(apiBaseCount)) headers[name] = value;
      this.#headers = headers;
    }
    return this.#headers;
  }
}

/**
 * The refusal of a client over its /v1 quota: the contract's error with the security, CORS and
 * rate-limit headers. It depends only on the site, the kind of answer and the seconds to wait,
 * so it is made once for each (one kept answer per part of the key: no part is written into a
 * string and read back) and sent as it is to every client refused in a flood.
 */
const refusals = memoise((siteUrl: string) =>
  memoise((kind: SecurityKind) => memoise((resetSeconds: number) => refusal(siteUrl, kind, resetSeconds))),
);

function refusal(siteUrl: string, kind: SecurityKind, resetSeconds: number): PreparedAnswer {
  const decision: RateLimitDecision = { allowed: false, limit: apiRateLimit.requests, remaining: 0, resetSeconds };
  const { body, headers } = errorAnswer(
    new ApiError('rate_limited', {
      message: `Rate limit exceeded: ${apiRateLimit.requests} requests per ${apiRateLimit.windowSeconds} seconds per client IP.`,
      hint: `Wait ${resetSeconds} seconds (see Retry-After) and retry.`,
    }),
    siteUrl,
  );
  for (const [k, v] of Object.entries({
    ...kinds[kind].security,
    ...corsHeaders,
    ...rateLimitHeaders(apiRateLimit, decision),
  }))
    headers.set(k, v);
  return Object.freeze({
    status: 429,
    headers: Object.freeze([...headers].map(([k, v]) => Object.freeze([k, v] as const))),
    body: Buffer.from(body),
  });
}

/** The refusal over the quota, made once, answered as it is (see PreparedOutcome). */
export function overQuota(siteUrl: string, kind: SecurityKind, resetSeconds: number): RulesOutcome {
  return new PreparedOutcome(refusals(siteUrl)(kind)(resetSeconds));
}

/** A refusal made once, answered as it is: the host writes `prepared`; any other reader gets a Response of its own (a body is read once). */
class PreparedOutcome {
  readonly kind = 'respond';
  readonly prepared: PreparedAnswer;

  constructor(prepared: PreparedAnswer) {
    this.prepared = prepared;
  }

  get response(): Response {
    return new Response(new Uint8Array(this.prepared.body), {
      status: this.prepared.status,
      headers: this.prepared.headers as [string, string][],
    });
  }
}
