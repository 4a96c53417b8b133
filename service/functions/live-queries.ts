/**
 * The query parameters each live page path reads, declared once. The functions read a request's
 * parameters through here, and the kept copies of their answers (the departures function's own,
 * the Node host's edge cache) are keyed by the canonical form below, so a parameter no path
 * declares never causes new work: `/departures?utm_source=x` and `/departures?z=1` are
 * `/departures`, answered from the same kept copy.
 *
 * Any other parameter is ignored, not redirected: a link carrying tracking or cache-busting
 * parameters still works in one request, and the page's canonical link names the one address.
 * An empty value is the same as none. /v1 is not here: each operation declares its own
 * parameters (service/v1/operations.ts) and answers an unknown one with 400.
 *
 * To accept a new parameter, add its name to its path.
 */
import { tripSection } from '../../domain/catalogue/index.ts';
import { departureParam, groupSizeParam } from '../departures/enquiry-link.ts';
import { boardFilterNames } from '../departures/board-filters.ts';

export const liveQueryParameters: Readonly<Record<string, readonly string[]>> = {
  // The departure search (service/departures/search.ts, read by board-filters.ts): the board,
  // its Markdown and its calendar.
  '/departures': boardFilterNames,
  '/departures.md': boardFilterNames,
  '/departures.ics': boardFilterNames,
  '/departures/block': ['trip'],
  // The same search's changes as feeds (service/alerts/feeds.ts).
  '/departures/feed.atom': boardFilterNames,
  '/departures/feed.json': boardFilterNames,
  '/enquiry-sent': ['ref'],
  // The links of alert emails (service/alerts/requests.ts).
  '/alerts/confirm': ['token'],
  '/alerts/unsubscribe': ['token'],
  '/agent/claim': ['user_code'],
};

/**
 * Paths of one shape, each a trip's: `/treks/<slug>/enquire?departure=<id>&groupSize=<n>`, the
 * form with a departure's dates and the group a search was made for.
 */
const livePathPatterns: readonly (readonly [RegExp, readonly string[]])[] = [
  [new RegExp(`^/(?:${Object.values(tripSection).join('|')})/[^/]+/enquire$`), [departureParam, groupSizeParam]],
];

const none: readonly string[] = [];

/** The parameters a path declares (none for a path not listed); `/departures/` is `/departures`. */
export function declaredParameters(pathname: string): readonly string[] {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  // Own entries only: a path is never looked up among the object's inherited members.
  if (Object.hasOwn(liveQueryParameters, path)) return liveQueryParameters[path]!;
  return livePathPatterns.find(([pattern]) => pattern.test(path))?.[1] ?? none;
}

/** The declared parameters of `url` with a value, in the order of the declaration; repeated values kept in order. */
export function declaredQuery(url: URL): URLSearchParams {
  const query = new URLSearchParams();
  if (url.search.length <= 1) return query;
  for (const name of declaredParameters(url.pathname)) {
    for (const value of url.searchParams.getAll(name)) if (value !== '') query.append(name, value);
  }
  return query;
}

/** The path and declared query of `url`: the one key of every URL that must get the same answer. */
export function canonicalLivePath(url: URL): string {
  const query = declaredQuery(url).toString();
  return query ? `${url.pathname}?${query}` : url.pathname;
}
