/** /sitemap.xml, where many crawlers look first: the sitemap index, the same bytes as /sitemap-index.xml. */
import type { APIRoute } from 'astro';
import { sitemapIndexXml } from '../components/site-pages.ts';
import { getCatalogue } from '../lib/catalogue.ts';

export const GET: APIRoute = async () =>
  new Response(sitemapIndexXml(await getCatalogue()), {
    headers: { 'Content-Type': 'application/xml; charset=utf-8' },
  });
