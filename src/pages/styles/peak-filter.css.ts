/** /styles/peak-filter.css: the filters of the peak table, in CSS (see peak-table.ts). */
import type { APIRoute } from 'astro';
import { peakFilterStyles } from '../../components/peak-table.ts';
import { getCatalogue } from '../../lib/catalogue.ts';

export const GET: APIRoute = async () => {
  const regions = [...new Set((await getCatalogue()).peaks.map((p) => p.region))].sort();
  return new Response(peakFilterStyles(regions), { headers: { 'Content-Type': 'text/css; charset=utf-8' } });
};
