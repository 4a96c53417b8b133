/**
 * Every HTML page of the site, for the sitemap and the tests that walk it. Trip pages are
 * rendered on demand, so they are listed from the catalogue rather than discovered by a build.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';

export interface SitePage {
  path: string;
  lastmod?: string | undefined;
}

/** Pages owned elsewhere in src/pages, listed only when their route exists in this build. */
const optionalPages = import.meta.glob(['../pages/departures.astro', '../pages/departures/index.astro']);

export function sitePages(catalogue: Catalogue): SitePage[] {
  const newestTrip = catalogue.trips.map((t) => t.trip.lastUpdated).filter(Boolean).sort().at(-1);
  return [
    { path: '/', lastmod: newestTrip },
    { path: '/treks', lastmod: newestTrip },
    { path: '/expeditions', lastmod: newestTrip },
    ...catalogue.trips.map((t) => ({ path: t.path, lastmod: t.trip.lastUpdated })),
    ...(Object.keys(optionalPages).length > 0 ? [{ path: '/departures' }] : []),
    { path: '/peak-data', lastmod: catalogue.site.dataset.lastUpdated },
    { path: '/developers' },
  ];
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function sitemapXml(catalogue: Catalogue): string {
  const urls = sitePages(catalogue).map(
    (page) => `  <url><loc>${escapeXml(`${catalogue.siteUrl}${page.path}`)}</loc>${page.lastmod ? `<lastmod>${page.lastmod}</lastmod>` : ''}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

export function sitemapIndexXml(catalogue: Catalogue): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  <sitemap><loc>${escapeXml(`${catalogue.siteUrl}/sitemap-0.xml`)}</loc></sitemap>\n</sitemapindex>\n`;
}
