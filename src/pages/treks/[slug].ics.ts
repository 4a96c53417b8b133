/** The departures of one trek as an iCalendar feed. */
import { tripCalendarRoute } from '../../lib/trip-routes.ts';

export const prerender = false;

export const GET = tripCalendarRoute('trek');
