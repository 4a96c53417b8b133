/**
 * What the built site's files need beyond their bytes, worked out once at build time and applied
 * the same way by both hosts (the Node host reads `dist/live/static-routes.json`; the Vercel
 * Build Output carries the same routes in its config): the media type of published files whose
 * name does not tell it (from the list of published files, service/site-files.ts), the cache
 * policy of every file, and the token estimate of every Markdown file.
 *
 * Routes use the Vercel Build Output form (`src` regular expression, `headers`, `status`,
 * `continue`), so one list serves both hosts. A file's headers are matched on the path of the
 * file that answers, after any rewrite (the `hit` phase), so `/` asked for as Markdown gets the
 * token count of `/index.md`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { markdownTokenCount } from '../markdown/tokens.ts';
import { cachePolicy } from '../http/cache-policy.ts';
import { siteFileByPath } from '../site-files.ts';
import { mediaTypes } from './static-files.ts';

export interface Route {
  src?: string;
  dest?: string;
  headers?: Record<string, string>;
  status?: number;
  continue?: boolean;
  check?: boolean;
  handle?: string;
}

export interface StaticRoutes {
  /** Before everything: the place for redirects, and what must happen before vercel.json's. */
  early: Route[];
  /**
   * When a built file answers (Vercel's `hit` phase), matched on the path it answers at (its
   * clean URL for a page): its headers.
   */
  hit: Route[];
  /** After nothing else matched: the not-found answers. */
  notFound: Route[];
}

/** The web app manifest keeps its media type on any host (static hosts often send it as JSON or octet-stream). */
const browserFileHeaders: Record<string, Record<string, string>> = {
  '/manifest.webmanifest': { 'Content-Type': 'application/manifest+json' },
};

function exactly(pathname: string): string {
  return `^${pathname.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
}

/** `application/json` of `application/json; charset=utf-8`. */
function essence(mediaType: string): string {
  return mediaType.split(';')[0]!.trim().toLowerCase();
}

function publishedPaths(siteDir: string): string[] {
  return readdirSync(siteDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => `/${path.relative(siteDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')}`)
    .sort();
}

/** How long a built file may be kept, by whom: one policy per kind of file. */
export function fileCachePolicy(published: string): string {
  if (published.startsWith('/_astro/')) return cachePolicy.immutable;
  if (published === '/sw.js') return cachePolicy.revalidate;
  // The HTML not-found page is only ever an answer (404.md is also a published file, read as such).
  if (published === '/404.html') return cachePolicy.never;
  if (published.startsWith('/v1/')) return cachePolicy.catalogue;
  const declared = siteFileByPath(published);
  if (declared && !declared.live) return cachePolicy.published;
  return cachePolicy.page;
}

/** The path a built file answers at: its clean URL for a page (`/a/b.html` → `/a/b`, `/index.html` → `/`). */
function servedPath(published: string): string {
  if (published === '/index.html') return '/';
  return published.endsWith('.html') ? published.slice(0, -'.html'.length) : published;
}

/**
 * vercel.json's clean URLs (`cleanUrls`, compiled by @vercel/routing-utils) redirect
 * `/<path>.html` and `/<path>/index` to `Location: /$1`. A path that starts with two slashes, or
 * a slash and a backslash, makes that `//evil.example/x`, which a browser reads as another host
 * (an open redirect). This route hands those redirects the path with its leading slashes merged
 * first, so they stay on the site (`/evil.example/x`, a 404 here). It rewrites only paths the
 * redirects then answer, so nothing else sees the rewritten path; as a `continue` route of the
 * build, Vercel runs it before the project's own redirects (docs/deployment.md), and the Node
 * host's router runs the build's early routes first (service/host/router.ts).
 */
export const sameSiteRedirectGuard: Route = {
  src: '^/[/\\\\]+((?:.*/)?index(?:\\.html)?/?|.*\\.html/?)$',
  dest: '/$1',
  continue: true,
};

export function buildStaticRoutes(siteDir: string): StaticRoutes {
  const early: Route[] = [sameSiteRedirectGuard];
  const hit: Route[] = [];
  for (const published of publishedPaths(siteDir)) {
    const headers: Record<string, string> = { ...browserFileHeaders[published] };
    const declared = siteFileByPath(published)?.mediaType;
    const byExtension = mediaTypes[path.extname(published)];
    if (declared && essence(declared) !== essence(byExtension ?? '')) headers['Content-Type'] = declared;
    headers['Cache-Control'] = fileCachePolicy(published);
    if (published.endsWith('.md'))
      headers['X-Markdown-Tokens'] = String(markdownTokenCount(readFileSync(path.join(siteDir, published), 'utf8')));
    hit.push({ src: exactly(servedPath(published)), headers, continue: true });
  }
  return {
    early,
    hit,
    notFound: [
      // Markdown clients that miss get the Markdown recovery note; everyone else the HTML page.
      { src: '^/.*\\.md$', dest: '/404.md', status: 404 },
      { src: '^/.*$', dest: '/404.html', status: 404 },
    ],
  };
}
