/**
 * The machine-readable files the site publishes, declared once: the service index lists them,
 * llms.txt links them, the request rules give them CORS and cache headers, the Node host takes
 * the media types their extensions do not tell from here, and tests fetch every one.
 */
import { skillPath, skillSummaries } from './skill-list.ts';
import { peakDataFileList, peakDataFiles } from '../domain/catalogue/peak-data-files.ts';
import { cachePolicy } from './http/cache-policy.ts';

export interface SiteFile {
  /** Path under the site origin. */
  path: string;
  /** Short name, as a link text. */
  title: string;
  description: string;
  mediaType: string;
  /** Other paths serving the same bytes: the discovery locations agents and scanners probe. */
  aliases?: string[];
  /** Answered per request (live data) rather than built once per deploy. */
  live?: boolean;
  /** Worth reading first (`llms.txt` lists the others under "Optional"). */
  essential?: boolean;
}

/** RFC 9727: the API catalog is a linkset with the RFC's profile. */
const apiCatalogMediaType = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';
export const serverCardMediaType = 'application/mcp-server-card+json';
/** The AI Catalog's own media type, which its serving guide asks for. */
const aiCatalogMediaType = 'application/ai-catalog+json';

/** Where the AI Catalog is advertised from HTML heads (`<link rel="ai-catalog">`) and Link headers. */
/** The OpenAPI document of the booking enquiry endpoint, which the contract keeps outside /v1. */
export const enquiryOpenApiPath = '/enquiry-openapi.json';

export const aiCatalogLink = {
  rel: 'ai-catalog',
  href: '/.well-known/ai-catalog.json',
  type: aiCatalogMediaType,
} as const;

/** The MCP server's card, advertised from HTML heads (`<link rel="mcp-server-card">`) and the home page's Link header. */
export const mcpServerCardLink = {
  rel: 'mcp-server-card',
  href: '/mcp/server-card',
  type: serverCardMediaType,
} as const;

export const siteFiles: SiteFile[] = [
  {
    path: '/llms.txt',
    title: 'llms.txt',
    description:
      'Guide for language models: what the site is and links to every Markdown page, the API and the dataset.',
    mediaType: 'text/plain; charset=utf-8',
    essential: true,
  },
  {
    path: '/llms-full.txt',
    title: 'The full catalogue as text',
    description:
      'The whole catalogue as one Markdown text: every trip with itinerary and FAQs, the peaks table and the API guide.',
    mediaType: 'text/plain; charset=utf-8',
  },
  {
    path: '/agent-instructions.md',
    title: 'Agent instructions',
    description: 'How an agent should use the API, the Markdown pages and the enquiry path, and what it must not do.',
    mediaType: 'text/markdown; charset=utf-8',
    essential: true,
  },
  {
    path: '/llm-guidance.json',
    title: 'Agent guidance as data',
    description:
      'The agent guidance as data: preferred sources, citation and attribution rules, which page wins when numbers disagree, contact.',
    mediaType: 'application/json',
  },
  {
    path: '/openapi.json',
    title: 'OpenAPI description',
    description: 'OpenAPI 3.1 description of the /v1 API.',
    mediaType: 'application/json',
    essential: true,
  },
  {
    path: enquiryOpenApiPath,
    title: 'Enquiry OpenAPI description',
    description:
      'OpenAPI 3.1 description of POST /api/bookings: a booking enquiry sent for a person, with their consent; a guide calls them back.',
    mediaType: 'application/json',
    essential: true,
  },
  // The peak dataset in each of its formats (domain/catalogue/peak-data-files.ts).
  ...peakDataFileList.map((file) => ({
    path: file.path,
    title: file === peakDataFiles.json ? 'Peak dataset' : `Peak dataset: ${file.format}`,
    description: file.description,
    mediaType: file.mediaType,
    ...(file === peakDataFiles.json ? { essential: true } : {}),
  })),
  {
    path: '/departures.md',
    title: 'Departures',
    description:
      'Live departures as Markdown, by month: the departure search, and the fallback when the JSON API cannot be used. Filters as on /v1/departures: from, to, type, difficulty, region, minDays, maxDays, minSeats, maxPriceInr, trip (and month=YYYY-MM).',
    mediaType: 'text/markdown; charset=utf-8',
    live: true,
  },
  {
    path: '/api-catalog',
    title: 'API catalog',
    description: 'RFC 9727 API catalog (linkset) pointing at the API, its description, documentation and status.',
    mediaType: apiCatalogMediaType,
    aliases: ['/.well-known/api-catalog'],
  },
  {
    path: '/ai-catalog.json',
    title: 'AI catalog',
    description: 'AI Catalog of what agents can use here: the API, the MCP server, the peak dataset and the skills.',
    mediaType: aiCatalogMediaType,
    aliases: [aiCatalogLink.href],
  },
  // One document wherever agents and scanners look for it (the contract's /mcp/server-card.json
  // among them): the same bytes and one media type at every address.
  {
    path: '/mcp/server-card',
    title: 'MCP server card',
    description:
      'The MCP server card (server-card extension, schema v1) of the streamable HTTP endpoint /mcp: name, version, endpoint and protocol versions.',
    mediaType: serverCardMediaType,
    aliases: ['/mcp/server-card.json', '/.well-known/mcp/server-card.json', '/.well-known/mcp/server-card'],
  },
  {
    path: '/agent-skills/index.json',
    title: 'Agent skills index',
    description: 'Agent Skills discovery index (v0.2.0) with the SHA-256 digest of every SKILL.md.',
    mediaType: 'application/json',
    aliases: ['/.well-known/agent-skills/index.json'],
  },
  ...skillSummaries.map((skill) => ({
    path: skillPath(skill.name),
    title: `Skill: ${skill.name}`,
    description: `Agent skill "${skill.name}": ${skill.description}`,
    mediaType: 'text/markdown; charset=utf-8',
    aliases: [skillPath(skill.name, { wellKnown: false })],
  })),
  {
    path: '/auth.md',
    title: 'Agent registration',
    description: 'Agent registration instructions (optional: the public API needs no credential).',
    mediaType: 'text/markdown; charset=utf-8',
    live: true,
  },
  // Agent registration discovery (service/agent-auth), answered per request from the running origin.
  {
    path: '/.well-known/oauth-protected-resource',
    title: 'Protected resource metadata',
    description:
      'RFC 9728 metadata of the site as a protected resource: the resource, its one scope and its authorization server.',
    mediaType: 'application/json',
    live: true,
  },
  {
    path: '/.well-known/oauth-protected-resource/mcp',
    title: 'Protected resource metadata of /mcp',
    description: 'RFC 9728 path-aware metadata of the MCP endpoint as a protected resource (it needs no token either).',
    mediaType: 'application/json',
    live: true,
  },
  {
    path: '/.well-known/oauth-authorization-server',
    title: 'Authorization server metadata',
    description:
      'RFC 8414 metadata of the optional agent registration: endpoints, grant types and the agent_auth block.',
    mediaType: 'application/json',
    aliases: ['/.well-known/openid-configuration'],
    live: true,
  },
  {
    path: '/.well-known/jwks.json',
    title: 'Signing keys',
    description: 'Public keys (JWK Set) of the tokens the site signs for registered agents.',
    mediaType: 'application/jwk-set+json',
    live: true,
  },
  {
    path: '/sitemap-index.xml',
    title: 'Sitemap',
    description: 'Sitemap index of every page, each with the day it last changed.',
    mediaType: 'application/xml',
    aliases: ['/sitemap.xml'],
  },
  {
    path: '/404.md',
    title: 'Not-found note',
    description: 'The recovery note a missing path answers with, as Markdown.',
    mediaType: 'text/markdown; charset=utf-8',
  },
  {
    path: '/robots.txt',
    title: 'robots.txt',
    description: 'Crawler rules, including AI crawlers and content signals, with the sitemap.',
    mediaType: 'text/plain; charset=utf-8',
  },
];

export function siteFileUrl(siteUrl: string, file: SiteFile): string {
  return `${siteUrl}${file.path}`;
}

/** `/peak-data/<version>/<file>`: a file of one release of the dataset (domain/catalogue/releases.ts). */
const releaseFile = /^\/peak-data\/(\d+\.\d+\.\d+)\/([^/]+)$/;

/** A release's file, described and typed as the current file of that name. */
function releaseSiteFile(path: string): SiteFile | undefined {
  const [, version, name] = releaseFile.exec(path) ?? [];
  const file = peakDataFileList.find((f) => f.name === name);
  if (!version || !file) return undefined;
  return {
    path,
    title: `Peak dataset ${version}: ${file.format}`,
    description: file.description,
    mediaType: file.mediaType,
  };
}

export function siteFileByPath(path: string): SiteFile | undefined {
  return siteFiles.find((file) => file.path === path || file.aliases?.includes(path)) ?? releaseSiteFile(path);
}

/** The type a static host gives a file for its extension, without parameters. */
const typeByExtension: Record<string, string> = {
  json: 'application/json',
  md: 'text/markdown',
  txt: 'text/plain',
  xml: 'application/xml',
};

function essence(mediaType: string): string {
  return mediaType.split(';')[0]?.trim().toLowerCase() ?? '';
}

function builtPaths(): { path: string; mediaType: string; extension: string | null }[] {
  // Live files are answered by their routes, which set their own media type.
  return siteFiles
    .filter((file) => !file.live)
    .flatMap((file) =>
      [file.path, ...(file.aliases ?? [])].map((path) => {
        const name = path.slice(path.lastIndexOf('/') + 1);
        return {
          path,
          mediaType: file.mediaType,
          extension: name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : null,
        };
      }),
    );
}

/** Media types of published files whose names carry no extension, for static file servers. */
export function extensionlessMediaTypes(): Record<string, string> {
  return Object.fromEntries(
    builtPaths()
      .filter((p) => p.extension === null)
      .map((p) => [p.path, p.mediaType]),
  );
}

/**
 * Every built file whose media type a static host cannot take from its extension: those without
 * one, and those whose type is more specific than the extension's (`ai-catalog.json` is
 * `application/ai-catalog+json`). What the hosts should give `StaticFiles` and vercel.json.
 */
export function mediaTypeOverrides(): Record<string, string> {
  return Object.fromEntries(
    builtPaths()
      .filter(
        (p) =>
          p.extension === null ||
          (typeByExtension[p.extension] !== undefined && essence(p.mediaType) !== typeByExtension[p.extension]),
      )
      .map((p) => [p.path, p.mediaType]),
  );
}

/**
 * Headers of a published file for any client, browsers on other origins included: CORS for
 * GET, caching, and on the API catalog the Link that RFC 9727 asks HEAD to return. Files
 * whose extension does not tell their media type get it here, which static hosts cannot guess
 * (vercel.json names it too). Null when the path is not a published file.
 */
export function agentFileHeaders(pathname: string): Record<string, string> | null {
  const file = siteFileByPath(pathname);
  if (!file) return null;
  const override = mediaTypeOverrides()[pathname];
  return {
    ...(override ? { 'Content-Type': override } : {}),
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
    'Access-Control-Allow-Headers': 'Accept, If-None-Match',
    'Access-Control-Expose-Headers': 'ETag, Link',
    'Access-Control-Max-Age': '86400',
    ...(file.live ? {} : { 'Cache-Control': cachePolicy.published }),
    ...(file.path === '/api-catalog' ? { Link: '</.well-known/api-catalog>; rel="api-catalog"' } : {}),
  };
}
