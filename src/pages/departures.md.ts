/** departures.md: live availability as Markdown, the contract's fallback for the JSON API. */
import type { APIRoute } from 'astro';
import { cacheControlFor } from '../../service/departures/live.ts';
import { departuresMarkdown } from '../../service/markdown/departures.ts';
import { markdownResponse } from '../../service/markdown/response.ts';
import { getCatalogue } from '../lib/catalogue.ts';
import { getLiveDepartures } from '../lib/runtime.ts';

export const prerender = false;

export const GET: APIRoute = async () => {
  const [catalogue, live] = await Promise.all([getCatalogue(), getLiveDepartures()]);
  return markdownResponse(departuresMarkdown(catalogue, live), { cacheControl: cacheControlFor(live) });
};
