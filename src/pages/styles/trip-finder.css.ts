/** /styles/trip-finder.css: the filters of the trip indexes, in CSS (see trip-finder.ts). */
import type { APIRoute } from 'astro';
import { finderStyles } from '../../components/trip-finder.ts';

export const GET: APIRoute = () =>
  new Response(finderStyles(), { headers: { 'Content-Type': 'text/css; charset=utf-8' } });
