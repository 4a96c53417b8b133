/**
 * The request rules, each a small pure function of one request (what it asked for, how it was
 * counted) that either decides its outcome or passes it on to the next, as a list read top to
 * bottom. /v1 and the rest of the site have a list each; the last rule of each always decides.
 *
 *   /v1:   quota → CORS preflight → built answer → function
 *   site:  published file (CORS) → wrong case → Markdown twin → page → any other path
 *
 * Counting the request (the one step that waits on a store) happens before, in index.ts; what a
 * rule works out about a path is kept per path (memoise), never per request.
 */
import { acceptsJson } from '../http/accept-json.ts';
import { routableApiPath, type ApiPath } from '../http/api-path.ts';
import { staticAnswerFile } from '../http/api-files.ts';
import { memoise } from '../http/bounded-memo.ts';
import { cachePolicy } from '../http/cache-policy.ts';
import { isPagePath, markdownTwinPath, prefersMarkdown } from './negotiation.ts';
import { answered, counted, limitHeaders, onward, overQuota, type RulesOutcome } from './outcomes.ts';
import type { RateLimitDecision } from './rate-limiter.ts';
import {
  apiHeaders,
  corsHeaders,
  kinds,
  pageHeaders,
  publishedFileHeaders,
  type SecurityKind,
} from './rule-headers.ts';
import { isWrongCase, wrongCaseTarget } from './wrong-case.ts';

/** What a rule reads of a request: a web `Request` is one. */
export interface AskedFor {
  method: string;
  headers: { get(name: string): string | null };
}

/** One request as every rule sees it, worked out once before the first rule. */
export interface RuleInput {
  request: AskedFor;
  url: URL;
  pathname: string;
  api: ApiPath;
  /** How the request was counted against the /v1 quota: null when it was not (not /v1, counting off, the store failing). */
  decision: RateLimitDecision | null;
  siteUrl: string;
  https: boolean;
  kind: SecurityKind;
}

/** A rule: the outcome it decides, or undefined to pass the request on. */
type Rule = (input: RuleInput) => RulesOutcome | undefined;

const isRead = (request: AskedFor) => request.method === 'GET' || request.method === 'HEAD';

// ---- /v1 -------------------------------------------------------------------------------------

/** Quota: a client over its /v1 quota is refused (429), the same answer for everyone refused alike. */
const quota: Rule = ({ decision, siteUrl, kind }) =>
  decision && !decision.allowed ? overQuota(siteUrl, kind, decision.resetSeconds) : undefined;

/** CORS: a browser's preflight (OPTIONS naming the method to come) is answered here, so it never starts a function. */
const apiPreflight: Rule = ({ request, https, decision }) => {
  if (request.method !== 'OPTIONS' || request.headers.get('Access-Control-Request-Method') === null) return undefined;
  return answered(
    new Response(null, {
      status: 204,
      headers: {
        ...(https ? apiHeaders.https.base : apiHeaders.http.base),
        ...limitHeaders(decision),
        Allow: corsHeaders['Access-Control-Allow-Methods'],
        'Cache-Control': cachePolicy.never,
      },
    }),
  );
};

/** The /v1 answer published as a file at build time for a path, looked up once per path. */
const builtAnswerFile = memoise((api: Extract<ApiPath, { kind: 'api' }>) => staticAnswerFile(api.segments));

/** Built file: a plain GET (or HEAD) of an answer published at build time goes to its file, which answers exactly as the API would. */
const builtAnswer: Rule = ({ request, url, api, https, decision }) => {
  if (api.kind !== 'api' || !isRead(request) || url.search !== '' || !acceptsJson(request.headers.get('Accept')))
    return undefined;
  const file = builtAnswerFile(api);
  return file === null ? undefined : counted(file, https ? apiHeaders.https.file : apiHeaders.http.file, decision);
};

/** Everything else of /v1 is answered by a function, which reads the path the same way (service/http/api-path.ts). */
const apiFunction = (
  { pathname, https, decision }: RuleInput,
  api: Exclude<ApiPath, { kind: 'not-api' }>,
): RulesOutcome =>
  counted(routableApiPath(pathname, api), https ? apiHeaders.https.base : apiHeaders.http.base, decision);

// ---- the rest of the site --------------------------------------------------------------------

/**
 * What a path is to the rules outside /v1, worked out once per path and kind of answer: a
 * published file (with its headers), a path in the wrong case, a page (the file it names and its
 * headers: `/treks/` is the page `/treks`, one file serves both spellings).
 */
function readPath(kind: SecurityKind, pathname: string) {
  const page = isPagePath(pathname) ? (pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname) : null;
  return {
    fileHeaders: publishedFileHeaders(kind, pathname),
    wrongCase: isWrongCase(pathname),
    page: page === null ? null : { pathname: page, headers: pageHeaders(kind, page) },
  };
}
const paths: Record<SecurityKind, (pathname: string) => ReturnType<typeof readPath>> = {
  https: memoise((pathname: string) => readPath('https', pathname)),
  http: memoise((pathname: string) => readPath('http', pathname)),
  httpsFramable: memoise((pathname: string) => readPath('httpsFramable', pathname)),
  httpFramable: memoise((pathname: string) => readPath('httpFramable', pathname)),
};
const pathOf = ({ kind, pathname }: RuleInput) => paths[kind](pathname);

/** CORS and caching of the published machine-readable files: for GET, and their preflight answered here. */
const publishedFile: Rule = (input) => {
  const headers = pathOf(input).fileHeaders;
  if (!headers) return undefined;
  if (input.request.method === 'OPTIONS') return answered(new Response(null, { status: 204, headers }));
  return onward(input.pathname, headers);
};

/** Wrong case: a path in the wrong letter case names nothing, so it goes to the not-found answer Accept asks for (wrong-case.ts). */
const wrongCase: Rule = (input) =>
  isRead(input.request) && pathOf(input).wrongCase
    ? onward(wrongCaseTarget(input.request.headers.get('Accept')), kinds[input.kind].vary)
    : undefined;

/** Markdown: a page asked for with `Accept: text/markdown` is its Markdown twin. */
const markdownTwin: Rule = (input) =>
  isRead(input.request) && pathOf(input).page && prefersMarkdown(input.request.headers.get('Accept'))
    ? onward(markdownTwinPath(input.pathname), kinds[input.kind].vary)
    : undefined;

/** A page: its file (`/treks/` is `/treks`), with `Vary: Accept` and its `Link` to the twin. */
const page: Rule = (input) => {
  const known = isRead(input.request) ? pathOf(input).page : null;
  return known ? onward(known.pathname, known.headers) : undefined;
};

/** Any other path goes on as it is, with the security headers alone. */
const anyPath = ({ pathname, kind }: RuleInput): RulesOutcome => onward(pathname, kinds[kind].security);

// ---- the lists -------------------------------------------------------------------------------

/** /v1, then apiFunction. */
const apiRules: readonly Rule[] = [quota, apiPreflight, builtAnswer];
/** The rest of the site, then anyPath. */
const siteRules: readonly Rule[] = [publishedFile, wrongCase, markdownTwin, page];

function first(rules: readonly Rule[], input: RuleInput): RulesOutcome | undefined {
  for (const rule of rules) {
    const outcome = rule(input);
    if (outcome) return outcome;
  }
  return undefined;
}

/** The outcome of the first rule of the request's list that decides one; the last of each list always does. */
export function decide(input: RuleInput): RulesOutcome {
  const { api } = input;
  if (api.kind === 'not-api') return first(siteRules, input) ?? anyPath(input);
  return first(apiRules, input) ?? apiFunction(input, api);
}
