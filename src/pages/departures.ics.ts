/** departures.ics: every published upcoming departure as an iCalendar feed. */
import type { APIRoute } from 'astro';
import { calendarResponse } from '../../service/calendar/departures.ts';
import { getCatalogue } from '../lib/catalogue.ts';
import { getLiveDepartures } from '../lib/runtime.ts';

export const prerender = false;

export const GET: APIRoute = async () => {
  const [catalogue, live] = await Promise.all([getCatalogue(), getLiveDepartures()]);
  return calendarResponse(catalogue, live, { fileName: 'departures.ics' });
};
