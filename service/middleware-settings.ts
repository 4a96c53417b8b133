/**
 * The settings the request rules read on Vercel (middleware.ts): the site's origin and where the
 * rate-limit counters are shared. Read here without Zod, which the routing middleware does not
 * load (its cold start, docs/benchmarks.md); service/config.ts names, documents and checks them
 * with every other setting, and reads the counters through `counterSettings` too, so the rule
 * (either pair of names, pasted whitespace dropped) is written once.
 */
type Source = Record<string, string | undefined>;

/** Where the rate-limit counters are shared. */
export interface CounterSettings {
  /** Upstash Redis over HTTPS, under Upstash's names or the Vercel Marketplace's. */
  upstash: { url: string; token: string } | null;
  /** Redis over TCP (Node hosts and functions). */
  redisUrl: string | undefined;
  /** Running on Vercel (it sets VERCEL=1), where counting in one instance's memory is worth a warning. */
  onVercel: boolean;
}

/** Pasted values often bring a newline or spaces along; blank is the same as unset. */
function trimmed(value: string | undefined): string | undefined {
  return value?.trim() || undefined;
}

export function counterSettings(source: Source): CounterSettings {
  const url = trimmed(source.UPSTASH_REDIS_REST_URL) ?? trimmed(source.KV_REST_API_URL);
  const token = trimmed(source.UPSTASH_REDIS_REST_TOKEN) ?? trimmed(source.KV_REST_API_TOKEN);
  return {
    upstash: url && token ? { url, token } : null,
    redisUrl: source.REDIS_URL || undefined,
    onVercel: source.VERCEL === '1',
  };
}

/** An origin as every absolute URL starts: without a trailing slash. */
export function withoutTrailingSlash(origin: string): string {
  return origin.replace(/\/+$/, '');
}

/** What the routing middleware reads: SITE_URL when set (else each request's own origin stands in), and the counters. */
export function readRulesSettings(source: Source): { siteUrl: string | undefined; counters: CounterSettings } {
  return {
    siteUrl: source.SITE_URL ? withoutTrailingSlash(source.SITE_URL) : undefined,
    counters: counterSettings(source),
  };
}
