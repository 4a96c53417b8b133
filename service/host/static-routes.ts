/**
 * What the built site's files need beyond their bytes, worked out once at build time and applied
 * the same way by both hosts (the Node host reads `dist/live/static-routes.json`; the Vercel
 * Build Output carries the same routes in its config): the media type of published files whose
 * name does not tell it, the token estimate of every Markdown file, and redirects of trip
 * addresses in the wrong section.
 *
 * Routes use the Vercel Build Output form (`src` regular expression, `headers`, `status`,
 * `continue`), so one list serves both hosts. A file's headers are matched on the path of the
 * file that answers, after any rewrite (the `hit` phase), so `/` asked for as Markdown gets the
 * token count of `/index.md`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { markdownTokenCount } from '../markdown/tokens.ts';
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
  /** Before everything (none today; the place for redirects). */
  early: Route[];
  /** When a built file answers (Vercel's `hit` phase), matched on the file's path: its headers. */
  hit: Route[];
  /** After nothing else matched: the not-found answers. */
  notFound: Route[];
}

/**
 * Files for browsers whose headers matter beyond their type: no cache on the way (a CDN, a proxy)
 * may hold an old offline worker, so a deploy's new worker reaches readers on their next visit;
 * the manifest keeps its media type on any host.
 */
export const browserFileHeaders: Record<string, Record<string, string>> = {
  '/sw.js': { 'Cache-Control': 'no-cache' },
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

export function buildStaticRoutes(siteDir: string): StaticRoutes {
  const early: Route[] = [];
  const hit: Route[] = [];
  for (const published of publishedPaths(siteDir)) {
    const headers: Record<string, string> = { ...browserFileHeaders[published] };
    const declared = siteFileByPath(published)?.mediaType;
    const byExtension = mediaTypes[path.extname(published)];
    if (declared && essence(declared) !== essence(byExtension ?? '')) headers['Content-Type'] = declared;
    if (published.endsWith('.md')) headers['X-Markdown-Tokens'] = String(markdownTokenCount(readFileSync(path.join(siteDir, published), 'utf8')));
    if (Object.keys(headers).length > 0) hit.push({ src: exactly(published), headers, continue: true });
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
