/** The departures of one trek as an iCalendar feed. */
import type { APIRoute } from 'astro';
import { calendarResponse } from '../../../api/calendar/departures.ts';
import { findTripPage } from '../../../api/markdown/trip.ts';
import { getCatalogue } from '../../lib/catalogue.ts';
import { getLiveDepartures } from '../../lib/runtime.ts';

export const prerender = false;

export const GET: APIRoute = async ({ params }) => {
  const catalogue = await getCatalogue();
  const page = findTripPage(catalogue, 'trek', params.slug);
  if (!page) {
    return new Response(`There is no trek called "${(params.slug ?? '').slice(0, 80)}". The trips are listed at ${catalogue.siteUrl}/departures.\n`, {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
  return calendarResponse(catalogue, await getLiveDepartures(page.trip.slug), { page, fileName: `${page.trip.slug}.ics` });
};
