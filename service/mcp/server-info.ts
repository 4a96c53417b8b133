/**
 * Who the MCP server says it is, shared by the server itself (initialize and server/discover
 * results) and the server card, so the two never disagree.
 */
import type { CacheHint } from '@modelcontextprotocol/server';
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { cachePolicy } from '../http/cache-policy.ts';

/** Bumped when the tools or resources change shape. */
export const mcpServerVersion = '1.2.0';

/** The stateless revision: `server/discover`, a `_meta` envelope and standard headers on every request. */
const modernProtocolVersion = '2026-07-28';

/**
 * The revisions /mcp speaks, newest first: 2026-07-28 (per request, no handshake) and the two
 * initialize-based revisions still in use. The first 2025 entry is what `initialize` counter-offers
 * to a client that asks for anything else. All three are served by the official v2 server package
 * (service/mcp/index.ts says which path serves which).
 */
export const mcpProtocolVersions: readonly string[] = [modernProtocolVersion, '2025-11-25', '2025-06-18'];

/** Reverse-DNS name of the canonical host plus one segment, e.g. `com.example/catalogue`. */
export function mcpServerName(catalogue: Catalogue): string {
  const host = new URL(catalogue.site.siteUrl).hostname.replace(/^www\./, '');
  return `${host.split('.').reverse().join('.')}/catalogue`;
}

export function mcpServerTitle(catalogue: Catalogue): string {
  return `${catalogue.site.operatorName} trek and expedition catalogue`;
}

export function mcpEndpointUrl(catalogue: Catalogue): string {
  return `${catalogue.siteUrl}/mcp`;
}

/**
 * What the server announces (initialize result, server/discover), and so what it honours. It is
 * stateless (a fresh server per POST, no session, no stream), so it can never send a
 * list-changed notification: `listChanged` is false, and a 2026-07-28 `subscriptions/listen` is
 * acknowledged with nothing to listen to. Completions complete the trip and peak templates and
 * the `enquire` prompt's trip.
 */
export const mcpCapabilities = {
  tools: { listChanged: false },
  resources: { listChanged: false },
  prompts: { listChanged: false },
  completions: {},
} as const;

/** The `max-age` of a /v1 cache policy, in milliseconds. */
function maxAgeMs(policy: string): number {
  return Number(/max-age=(\d+)/.exec(policy)?.[1] ?? 0) * 1000;
}

/**
 * How long a 2026-07-28 client may keep an answer (the revision's `ttlMs`/`cacheScope`): what
 * changes only with a deploy, as long as a browser keeps a /v1 catalogue answer; a trip's
 * Markdown, which carries live departures, as long as the departures answer. Every answer is the
 * same for every caller, so `public`.
 */
const catalogueCacheHint: CacheHint = { ttlMs: maxAgeMs(cachePolicy.catalogue), cacheScope: 'public' };
export const departuresCacheHint: CacheHint = { ttlMs: maxAgeMs(cachePolicy.departures), cacheScope: 'public' };

export const mcpCacheHints = {
  'server/discover': catalogueCacheHint,
  'tools/list': catalogueCacheHint,
  'prompts/list': catalogueCacheHint,
  'resources/list': catalogueCacheHint,
  'resources/templates/list': catalogueCacheHint,
  'resources/read': catalogueCacheHint,
} as const;
