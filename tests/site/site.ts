/** What the site tests share: the pages listed in the sitemap, and a Chromium to load them in. */
import { chromium, type Browser } from 'playwright-core';

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

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
}
