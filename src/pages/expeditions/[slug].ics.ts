/** The departures of one expedition as an iCalendar feed. */
import { tripCalendarRoute } from '../../lib/trip-routes.ts';

export const prerender = false;

export const GET = tripCalendarRoute('expedition');
