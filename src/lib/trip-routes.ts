/**
 * The per-trip live routes (Markdown twin, iCalendar feed), shared by the treks and expeditions
 * sections: each section's route file only names its trip type.
 */
import type { APIRoute } from 'astro';
import { calendarResponse } from '../../service/calendar/departures.ts';
import { cacheControlFor } from '../../service/departures/live.ts';
import { markdownResponse } from '../../service/markdown/response.ts';
import { findTripPage, tripMarkdown, tripNotFoundMarkdown } from '../../service/markdown/trip.ts';
import type { Trip } from '../schemas/trip.ts';
import { getCatalogue } from './catalogue.ts';
import { getLiveDepartures } from './runtime.ts';

/** The Markdown twin of a trip page, with its live departures. */
export function tripMarkdownRoute(type: Trip['type']): APIRoute {
  return async ({ params }) => {
    const catalogue = await getCatalogue();
    const page = findTripPage(catalogue, type, params.slug);
    if (!page) return markdownResponse(tripNotFoundMarkdown(catalogue, type, params.slug ?? ''), { status: 404 });
    const live = await getLiveDepartures(page.trip.slug);
    return markdownResponse(tripMarkdown(catalogue, page, live), { cacheControl: cacheControlFor(live) });
  };
}

/** The departures of one trip as an iCalendar feed. */
export function tripCalendarRoute(type: Trip['type']): APIRoute {
  return async ({ params }) => {
    const catalogue = await getCatalogue();
    const page = findTripPage(catalogue, type, params.slug);
    if (!page) {
      return new Response(`There is no ${type} called "${(params.slug ?? '').slice(0, 80)}". The trips are listed at ${catalogue.siteUrl}/departures.\n`, {
        status: 404,
        headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      });
    }
    return calendarResponse(catalogue, await getLiveDepartures(page.trip.slug), { page, fileName: `${page.trip.slug}.ics` });
  };
}
