/** /sitemap-0.xml: every HTML page, trip pages included, listed from the catalogue. */
import type { APIRoute } from 'astro';
import { sitemapXml } from '../components/site-pages.ts';
import { getCatalogue } from '../lib/catalogue.ts';

export const GET: APIRoute = async () =>
  new Response(sitemapXml(await getCatalogue()), { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
