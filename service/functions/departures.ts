/**
 * The departures function: everything that shows live dates and seats, read from operational
 * storage on each request (cached by browsers and the CDN for at most 60 seconds).
 *
 *   GET /v1/departures                      the API operation listDepartures
 *   GET /departures[?trip=<slug>]           the departures board, HTML (Markdown when asked for)
 *   GET /departures/block?trip=<slug>       one trip's live departures as an HTML fragment,
 *                                           loaded by the trip page's script
 *   GET /departures.md, /departures.ics     every departure as Markdown, as a calendar
 *   GET /treks/<slug>.md, /expeditions/<slug>.md   the trip pages' Markdown twins
 *   GET /treks/<slug>.ics, /expeditions/<slug>.ics one trip's departures as a calendar
 *
 * A trip page asked for with `Accept: text/markdown` reaches this function at its own path
 * (the request rules route it here) and is answered with its twin.
 */
import { calendarResponse } from '../calendar/departures.ts';
import { tripSection } from '../catalogue/index.ts';
import { boardMain, departuresBlock } from '../departures/board-html.ts';
import { cacheControlFor } from '../departures/live.ts';
import { departuresMarkdown } from '../markdown/departures.ts';
import { markdownResponse } from '../markdown/response.ts';
import { findTripPage, tripMarkdown, tripNotFoundMarkdown } from '../markdown/trip.ts';
import { prefersMarkdown } from '../rules/negotiation.ts';
import { handleV1 } from '../v1/index.ts';
import { apiPath } from '../v1/path.ts';
import { liveFunction, methodNotAllowed, notServedHere, plainText, withoutBodyForHead, type LiveFunction } from './live-function.ts';
import { departuresJsonLd } from '../../src/components/structured-data.ts';
import { htmlResponse, livePageHtml } from './page-shell.ts';
import { liveDepartures, v1Deps } from './live-storage.ts';
import { runtimeCatalogue } from './runtime.ts';

const tripPath = new RegExp(`^/(${Object.values(tripSection).join('|')})/([^/]+?)(\\.md|\\.ics)?/?$`);
const sectionType = Object.fromEntries(Object.entries(tripSection).map(([type, section]) => [section, type])) as Record<string, 'trek' | 'expedition'>;

async function tripTwinOrCalendar(section: string, slug: string, format: '.md' | '.ics'): Promise<Response> {
  const catalogue = runtimeCatalogue();
  const type = sectionType[section] ?? 'trek';
  const page = findTripPage(catalogue, type, slug);
  if (format === '.md') {
    if (!page) return markdownResponse(tripNotFoundMarkdown(catalogue, type, slug), { status: 404 });
    const live = await liveDepartures(page.trip.slug);
    return markdownResponse(tripMarkdown(catalogue, page, live), { cacheControl: cacheControlFor(live) });
  }
  if (!page) return plainText(404, `There is no ${type} called "${slug.slice(0, 80)}". The trips are listed at ${catalogue.siteUrl}/departures.`);
  return calendarResponse(catalogue, await liveDepartures(page.trip.slug), { page, fileName: `${page.trip.slug}.ics` });
}

async function board(request: Request, url: URL): Promise<Response> {
  const catalogue = runtimeCatalogue();
  if (prefersMarkdown(request.headers.get('Accept'))) return departuresFile('.md');
  const requested = url.searchParams.get('trip') ?? '';
  const chosen = catalogue.trips.find((p) => p.trip.slug === requested);
  const live = await liveDepartures(chosen?.trip.slug);
  const now = new Date();
  const body = livePageHtml(catalogue, 'departures', {
    title: chosen ? `Departures of ${chosen.trip.name}` : 'Departures: live availability',
    description: `Upcoming departures of ${chosen ? chosen.trip.name : `${catalogue.site.operatorName}'s Himalayan treks and expeditions`}, with seats left and prices in rupees, read live.`,
    canonicalPath: '/departures',
    markdownPath: '/departures.md',
    main: boardMain(catalogue, live, { chosen, now, unknownTrip: requested && !chosen ? requested : undefined }),
    ...(live.state === 'live' ? { jsonLd: departuresJsonLd(catalogue, live.departures) } : {}),
  });
  return htmlResponse(body, { headers: { 'Cache-Control': cacheControlFor(live), Vary: 'Accept' } });
}

async function block(url: URL): Promise<Response> {
  const catalogue = runtimeCatalogue();
  const page = catalogue.trips.find((p) => p.trip.slug === url.searchParams.get('trip'));
  if (!page) return plainText(404, 'Name a trip: /departures/block?trip=<slug>, with a slug from /v1/trips.');
  const live = await liveDepartures(page.trip.slug);
  return htmlResponse(departuresBlock(catalogue, live, { page, now: new Date() }).value, { headers: { 'Cache-Control': cacheControlFor(live) } });
}

async function departuresFile(format: '.md' | '.ics'): Promise<Response> {
  const catalogue = runtimeCatalogue();
  const live = await liveDepartures();
  return format === '.md'
    ? markdownResponse(departuresMarkdown(catalogue, live), { cacheControl: cacheControlFor(live) })
    : calendarResponse(catalogue, live, { fileName: 'departures.ics' });
}

export function departuresFunction(): LiveFunction {
  return liveFunction('departures', async (request, url) => {
    if (apiPath(url.pathname).kind !== 'not-api') return handleV1(request, v1Deps());
    if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed(request.method, 'GET, HEAD');
    const path = url.pathname;
    let response: Response;
    if (path === '/departures' || path === '/departures/') response = await board(request, url);
    else if (path === '/departures/block') response = await block(url);
    else if (path === '/departures.md') response = await departuresFile('.md');
    else if (path === '/departures.ics') response = await departuresFile('.ics');
    else {
      const trip = tripPath.exec(path);
      // A trip page path without an extension arrives here only when Markdown was asked for.
      response = trip ? await tripTwinOrCalendar(trip[1] ?? '', trip[2] ?? '', trip[3] === '.ics' ? '.ics' : '.md') : notServedHere(url);
    }
    return withoutBodyForHead(request, response);
  });
}
