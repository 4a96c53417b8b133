/**
 * Every public HTML page of the site, for the sitemap and the tests that walk it, each with the
 * day it last changed. Trip pages are listed from the catalogue; the departures board, which a
 * live function answers, is listed too.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';

interface SitePage {
  path: string;
  /** W3C date (YYYY-MM-DD) of the page's last change. */
  lastmod: string;
  /** Only for pages whose content changes between deploys (the live board). */
  changefreq?: 'hourly' | 'daily';
}

/**
 * The day of this build. Pages made from the code rather than the content (the developer
 * reference) change with a deploy, and the live board's frame is rebuilt with it; its dates
 * change more often, which `changefreq` says.
 */
const builtOn = new Date().toISOString().slice(0, 10);

function sitePages(catalogue: Catalogue, today = builtOn): SitePage[] {
  const newest = (dates: (string | undefined)[]) =>
    dates
      .filter((d): d is string => Boolean(d))
      .sort()
      .at(-1) ?? today;
  const tripsChanged = newest(catalogue.trips.map((t) => t.trip.lastUpdated));
  const ofType = (type: 'trek' | 'expedition') =>
    newest(catalogue.trips.filter((t) => t.trip.type === type).map((t) => t.trip.lastUpdated));
  return [
    { path: '/', lastmod: tripsChanged },
    { path: '/treks', lastmod: ofType('trek') },
    { path: '/expeditions', lastmod: ofType('expedition') },
    ...catalogue.trips.map((t) => ({ path: t.path, lastmod: t.trip.lastUpdated ?? today })),
    { path: '/departures', lastmod: today, changefreq: 'hourly' as const },
    { path: '/peak-data', lastmod: catalogue.site.dataset.lastUpdated },
    { path: '/developers', lastmod: today },
    { path: '/alerts', lastmod: today },
  ];
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function sitemapXml(catalogue: Catalogue): string {
  const urls = sitePages(catalogue).map(
    (page) =>
      `  <url><loc>${escapeXml(`${catalogue.siteUrl}${page.path}`)}</loc><lastmod>${page.lastmod}</lastmod>${page.changefreq ? `<changefreq>${page.changefreq}</changefreq>` : ''}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** The index of the one sitemap (the site has a few dozen pages), dated by its newest page. */
export function sitemapIndexXml(catalogue: Catalogue): string {
  const lastmod = sitePages(catalogue)
    .map((p) => p.lastmod)
    .sort()
    .at(-1);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  <sitemap><loc>${escapeXml(`${catalogue.siteUrl}/sitemap-0.xml`)}</loc><lastmod>${lastmod}</lastmod></sitemap>\n</sitemapindex>\n`;
}
