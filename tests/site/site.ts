/** What the site tests share: the pages listed in the sitemap, and a Chromium to load them in. */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { startServer, type RunningServer } from '../helpers/project.ts';
import { chromiumPath } from '../helpers/requirements.ts';

/** Every page path the sitemap lists, read through the running server (the sitemap's origin is the build's SITE_URL). */
export async function sitemapPaths(origin: string): Promise<string[]> {
  const index = await (await fetch(`${origin}/sitemap-index.xml`)).text();
  const sitemaps = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? '').pathname);
  const paths: string[] = [];
  for (const sitemap of sitemaps) {
    const xml = await (await fetch(`${origin}${sitemap}`)).text();
    paths.push(...[...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? '').pathname));
  }
  return paths;
}

export function isTripPath(path: string): boolean {
  return /^\/(treks|expeditions)\/[a-z0-9-]+$/.test(path);
}

/** Debian's Chromium, headless; `args` switch on more (for example `--enable-features=WebMCP`). */
export function launchChromium(args: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', ...args],
  });
}

export interface FixtureSiteInChromium {
  server: RunningServer;
  browser: Browser;
  /** The pages the sitemap lists. */
  paths: string[];
}

/**
 * For a test file: the built fixture site served, a Chromium and the sitemap's pages, ready
 * before its tests and stopped after them. Read the fields inside the tests, once they are set.
 */
export function fixtureSiteInChromium(): FixtureSiteInChromium {
  const site = {} as FixtureSiteInChromium;
  beforeAll(async () => {
    site.server = await startServer(inject('fixtureSite'));
    site.browser = await launchChromium();
    site.paths = await sitemapPaths(site.server.url);
  }, 60_000);
  afterAll(async () => {
    await site.browser?.close();
    await site.server?.stop();
  });
  return site;
}
