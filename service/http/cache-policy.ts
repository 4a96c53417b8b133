/**
 * Every Cache-Control the site sends, each named once for the rule it stands for: the /v1
 * answers, the live functions, the request rules, the build's file routes and both hosts read
 * them here, and the smoke checks compare answers with them.
 *
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
  /** /v1 catalogue data changes only with a deploy. */
  catalogue: 'public, max-age=300, s-maxage=3600',
  /** Departures change as seats sell: at most 60 seconds old in all (above). */
  departures: 'public, max-age=30, s-maxage=1, stale-while-revalidate=28',
  /** Pages, Markdown twins and other built files, and the agent-registration documents: a browser may reuse them for five minutes. */
  page: 'public, max-age=300',
  /** The published machine-readable files, built once per deploy (live ones set their own), and a trip's address in the other section. */
  published: 'public, max-age=3600',
  /** Built files named by a content hash: the same name never gets other bytes. */
  immutable: 'public, max-age=31536000, immutable',
  /** The offline worker (docs/offline.md): no cache on the way may hold an old one, so a deploy's new worker reaches readers on their next visit. */
  revalidate: 'no-cache',
  /** Never kept: errors, refusals, not-found answers (the path may exist after the next deploy), anyone's own pages, and departures that could not be read (storage usually comes back soon). */
  never: 'no-store',
} as const;

/** An answer made from live departures: kept as the contract allows, unless storage could not be read. */
export function liveCachePolicy(live: { state: 'live' | 'off' | 'unavailable' }): string {
  return live.state === 'unavailable' ? cachePolicy.never : cachePolicy.departures;
}
