/** The Markdown twin of a trek page, with its live departures. */
import type { APIRoute } from 'astro';
import { cacheControlFor } from '../../../api/departures/live.ts';
import { markdownResponse } from '../../../api/markdown/response.ts';
import { findTripPage, tripMarkdown, tripNotFoundMarkdown } from '../../../api/markdown/trip.ts';
import { getCatalogue } from '../../lib/catalogue.ts';
import { getLiveDepartures } from '../../lib/runtime.ts';

export const prerender = false;

export const GET: APIRoute = async ({ params }) => {
  const catalogue = await getCatalogue();
  const page = findTripPage(catalogue, 'trek', params.slug);
  if (!page) return markdownResponse(tripNotFoundMarkdown(catalogue, 'trek', params.slug ?? ''), { status: 404 });
  const live = await getLiveDepartures(page.trip.slug);
  return markdownResponse(tripMarkdown(catalogue, page, live), { cacheControl: cacheControlFor(live) });
};
