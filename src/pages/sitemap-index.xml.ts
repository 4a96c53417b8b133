/** /sitemap-index.xml: points at the one sitemap (the site has a few dozen pages). */
import type { APIRoute } from 'astro';
import { sitemapIndexXml } from '../components/site-pages.ts';
import { getCatalogue } from '../lib/catalogue.ts';

export const GET: APIRoute = async () =>
  new Response(sitemapIndexXml(await getCatalogue()), {
    headers: { 'Content-Type': 'application/xml; charset=utf-8' },
  });
