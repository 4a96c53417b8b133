/** The Markdown twin of a trek page, with its live departures. */
import { tripMarkdownRoute } from '../../lib/trip-routes.ts';

export const prerender = false;

export const GET = tripMarkdownRoute('trek');
