/**
 * The departures function: everything that shows live dates and seats, read from operational
 * storage on each request (cached by browsers and the CDN for at most 60 seconds).
 *
 *   GET /v1/departures                      the API operation listDepartures
 *   GET /departures[?from&to&type&difficulty&region&minDays&maxDays&minSeats&maxPriceInr&trip]
 *                                           the departures board: the departure search, HTML
 *                                           (Markdown when asked for); its filters are those of
 *                                           departures/search.ts, read in board-filters.ts (with
 *                                           the older month and seats)
 *   GET /departures/block?trip=<slug>       one trip's live departures as a small document: the
 *                                           trip page's script takes the block out of it, and
 *                                           without JavaScript the page shows it in a frame
 *   GET /departures.md[?the same], /departures.ics[?the same]  the search as Markdown and as a calendar
 *   GET /treks/<slug>.md, /expeditions/<slug>.md   the trip pages' Markdown twins
 *   GET /treks/<slug>.ics, /expeditions/<slug>.ics one trip's departures as a calendar
 *   GET /treks/<slug>/enquire?departure=<id>  the trip's enquiry form with that departure's dates
 *                                           filled in (bookings/enquiry-page.ts)
 *   GET /treks/<slug>, /expeditions/<slug>    only when no page was built there: a trip in the
 *                                           other section moves (301), anything else is a 404
 *
 * Query parameters other than the ones listed are ignored, and answers are kept under the
 * parameters a path reads (canonical filters, a known trip, a known departure), never under the
 * raw address.
 *
 * A trip page asked for with `Accept: text/markdown` reaches this function at its own path
 * (the request rules route it here) and is answered with its twin.
 *
 * Departures are read at most once a second per trip (service/departures/recent-reads.ts), and
 * every answer made from a read is kept for as long as the read is fresh, so a busy page costs one
 * query and one rendering a second, not one per visitor.
 */
import { calendarResponse } from '../calendar/departures.ts';
import { tripSection, type TripPage } from '../../domain/catalogue/index.ts';
import { departuresBlock } from '../departures/board-html.ts';
import { boardDepartures, boardMain } from '../departures/board-page.ts';
import { applyBoardFilters, boardQueryKey, filtersInWords, readBoardQuery, type BoardQuery } from '../departures/board-filters.ts';
import { departureParam, enquiryPage } from '../bookings/enquiry-page.ts';
import { cacheControlFor, type LiveDepartures } from '../departures/live.ts';
import { departuresMarkdown } from '../markdown/departures.ts';
import { markdownResponse } from '../markdown/response.ts';
import { findTripPage, tripMarkdown, tripNotFoundMarkdown } from '../markdown/trip.ts';
import { prefersMarkdown } from '../rules/negotiation.ts';
import { handleV1 } from '../v1/index.ts';
import { apiPath } from '../v1/path.ts';
import { liveFunction, methodNotAllowed, notServedHere, plainText, withoutBodyForHead, type LiveFunction } from './live-function.ts';
import { departuresJsonLd } from '../../domain/structured-data.ts';
import { html } from '../../domain/html.ts';
import { htmlResponse, liveBlockHtml, livePageHtml } from './page-shell.ts';
import { BoundedMemo } from '../http/bounded-memo.ts';
import { notModifiedResponse } from '../http/not-modified.ts';
import { matchesEtag } from '../http/respond.ts';
import { acceptsJson } from '../v1/accept.ts';
import { currentReadId, liveDepartures, v1Deps } from './live-storage.ts';
import { declaredQuery } from './live-queries.ts';
import { renderQuota, type RenderAdmission } from './render-quota.ts';
import { runtimeCatalogue } from './runtime.ts';
import { keptPerBuild } from './site-build.ts';

const tripPath = new RegExp(`^/(${Object.values(tripSection).join('|')})/([^/]+?)(\\.md|\\.ics|/enquire)?/?$`);
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

/**
 * A trip address with no built page: the trip in the other section moves there (301); otherwise
 * a page that says so and lists the trips of that section (404).
 */
function tripMiss(section: string, slug: string): Response {
  const catalogue = runtimeCatalogue();
  const elsewhere = catalogue.trips.find((p) => p.trip.slug === slug);
  if (elsewhere) return new Response(null, { status: 301, headers: { Location: elsewhere.path, 'Cache-Control': 'public, max-age=3600' } });
  const type = sectionType[section] ?? 'trek';
  const pages = catalogue.trips.filter((p) => p.trip.type === type).slice(0, 24);
  const body = livePageHtml(catalogue, 'page', {
    title: 'Trip not found',
    description: 'There is no trip at this address.',
    canonicalPath: `/${section}`,
    noindex: true,
    main: html`<h1>We have no trip at this address</h1>
<p>The link may be old or mistyped. Some of the ${section} we run (all of them are on <a href="${`/${section}`}">the ${section} page</a>):</p>
<ul>${pages.map((p) => html`<li><a href="${p.path}">${p.trip.name}</a></li>`)}</ul>
<p>Every page is listed in the <a href="/sitemap-index.xml">sitemap</a>.</p>`,
  });
  return htmlResponse(body, { status: 404, headers: { 'Cache-Control': 'no-store' } });
}

async function board(request: Request, query: BoardQuery): Promise<Response> {
  const catalogue = runtimeCatalogue();
  if (prefersMarkdown(request.headers.get('Accept'))) return departuresFile('.md', query);
  const chosen = catalogue.trips.find((p) => p.trip.slug === query.filters.trip);
  const live = await liveDepartures(chosen?.trip.slug);
  const words = filtersInWords(query.filters, catalogue);
  const shown = boardDepartures(catalogue, live, query.filters);
  const body = livePageHtml(catalogue, 'departures', {
    title: words.length > 0 ? `Departures: ${words.join(', ')}` : 'Departures: live availability',
    description: `Upcoming departures of ${chosen ? chosen.trip.name : `${catalogue.site.operatorName}'s Himalayan treks and expeditions`}, searchable by dates, difficulty, length, group size and budget, with seats left and prices in rupees, read live.`,
    canonicalPath: '/departures',
    markdownPath: '/departures.md',
    main: boardMain(catalogue, live, { query, now: new Date() }),
    ...(live.state === 'live' ? { jsonLd: departuresJsonLd(catalogue, shown) } : {}),
  });
  return htmlResponse(body, { headers: { 'Cache-Control': cacheControlFor(live), Vary: 'Accept' } });
}

/** One trip's departures as a document of their own: framed by its page without JavaScript, or the block taken out of it by /live-departures.js. */
async function block(page: TripPage | undefined): Promise<Response> {
  if (!page) return plainText(404, 'Name a trip: /departures/block?trip=<slug>, with a slug from /v1/trips.');
  const catalogue = runtimeCatalogue();
  const live = await liveDepartures(page.trip.slug);
  const body = liveBlockHtml(`Live departures of ${page.trip.name}`, html`<div class="departures-compact">${departuresBlock(catalogue, live, { page, now: new Date() })}</div>`);
  return htmlResponse(body, { headers: { 'Cache-Control': cacheControlFor(live) } });
}

async function enquire(page: TripPage, departureId: string | undefined): Promise<Response> {
  const catalogue = runtimeCatalogue();
  const live = await liveDepartures(page.trip.slug);
  const answer = enquiryPage(page, live, { departureId, now: new Date() });
  const body = livePageHtml(catalogue, 'page', { title: answer.title, description: answer.description, canonicalPath: page.path, noindex: true, main: answer.main });
  return htmlResponse(body, { status: answer.status, headers: { 'Cache-Control': answer.status === 200 ? cacheControlFor(live) : 'no-store' } });
}

async function departuresFile(format: '.md' | '.ics', query: BoardQuery): Promise<Response> {
  const catalogue = runtimeCatalogue();
  const live = await liveDepartures(query.filters.trip);
  if (format === '.md') return markdownResponse(departuresMarkdown(catalogue, live, { query }), { cacheControl: cacheControlFor(live) });
  const found: LiveDepartures = live.state === 'live' ? { state: 'live', departures: applyBoardFilters(live.departures, query.filters, catalogue) } : live;
  return calendarResponse(catalogue, found, { fileName: 'departures.ics' });
}

interface KeptAnswer {
  status: number;
  headers: [string, string][];
  body: Uint8Array;
}

/**
 * Answers kept per read: a thousand, and at most 8 MiB of them (a full board is about 150 KB;
 * every answer of one read of the real catalogue takes about 2 MB). Answers of older reads are
 * never asked for again and go first. Each build of the site keeps its own (its pages are made from
 * its catalogue and frames: service/functions/site-build.ts).
 */
const keptAnswers = keptPerBuild(() => new BoundedMemo<KeptAnswer>(1000, { maxBytes: 8 * 2 ** 20, sizeOf: (answer) => answer.body.byteLength + 1024 }));

/**
 * The answer `make` gives, kept under `key` for as long as the departures read it is made from
 * (the read of `tripSlug`'s departures, or of all) is fresh. Failures are never kept. Making
 * one afresh first asks `admit` (the render quota), which may answer instead.
 */
async function keptWhileFresh(request: Request, admit: RenderAdmission | null, tripSlug: string | undefined, key: string, make: () => Promise<Response>): Promise<Response> {
  const kept = keptAnswers();
  const readId = await currentReadId(tripSlug);
  const memoKey = readId === null ? null : `${readId}|${key}`;
  if (admit && (memoKey === null || !kept.has(memoKey))) {
    const refused = await admit(request, new URL(request.url));
    if (refused) return refused;
  }
  if (memoKey === null) return make();
  const answer = await kept.answer(memoKey, async () => {
    const response = await make();
    if (response.status >= 500) throw Object.assign(new Error('not kept'), { response });
    return { status: response.status, headers: [...response.headers], body: new Uint8Array(await response.arrayBuffer()) };
  }).catch((error: unknown) => {
    const response = (error as { response?: Response }).response;
    if (response) return response;
    throw error;
  });
  return answer instanceof Response ? answer : new Response(answer.body.slice(), { status: answer.status, headers: answer.headers });
}

/** GET /v1/departures: the API's answer, kept per read; conditional requests and HEAD are worked out from it. */
async function apiDepartures(request: Request, url: URL): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return handleV1(request, v1Deps());
  const trip = url.searchParams.get('trip') ?? undefined;
  const json = acceptsJson(request.headers.get('Accept'));
  const plain = new Request(url, { headers: { Accept: json ? 'application/json' : 'text/html' } });
  const known = runtimeCatalogue().trips.some((p) => p.trip.slug === trip);
  const answer = await keptWhileFresh(request, null, known ? trip : undefined, `api|${json}|${url.pathname}${url.search}`, () => handleV1(plain, v1Deps()));
  const etag = answer.headers.get('ETag');
  if (answer.status === 200 && etag && matchesEtag(request.headers.get('If-None-Match'), etag)) return notModifiedResponse(answer.headers);
  return withoutBodyForHead(request, answer);
}

/** The addresses of the departure search, and what each answers: the board, its Markdown, its calendar. */
const boardFormats: Record<string, 'html' | 'md' | 'ics'> = { '/departures': 'html', '/departures/': 'html', '/departures.md': 'md', '/departures.ics': 'ics' };

/**
 * What an answer depends on besides its path: the trip whose read it is made from, and the key
 * it is kept under (the parameters the path reads, in canonical form).
 */
async function answerInputs(path: string, url: URL, markdown: boolean): Promise<{ tripSlug: string | undefined; key: string; query: BoardQuery }> {
  const catalogue = runtimeCatalogue();
  const declared = declaredQuery(url);
  const query = readBoardQuery(declared, catalogue, new Date());
  const known = (slug: string | null | undefined) => catalogue.trips.find((p) => p.trip.slug === slug)?.trip.slug;
  const searchFormat = Object.hasOwn(boardFormats, path) ? boardFormats[path] : undefined;
  if (searchFormat) {
    const format = searchFormat === 'html' && markdown ? 'md' : searchFormat;
    return { tripSlug: query.filters.trip, key: `${format}|/departures${boardQueryKey(query)}`, query };
  }
  if (path === '/departures/block') {
    const trip = known(declared.get('trip'));
    return { tripSlug: trip, key: `block|${trip ?? ''}`, query };
  }
  const trip = tripPath.exec(path);
  const tripSlug = known(trip?.[2]);
  if (trip?.[3] === '/enquire') {
    // Kept under the departure only when it is one of the trip's: any other value gets the same page.
    const wanted = declared.get(departureParam) ?? '';
    const live = tripSlug && wanted ? await liveDepartures(tripSlug) : undefined;
    const departure = live?.state === 'live' && live.departures.some((d) => d.id === wanted) ? wanted : wanted ? '?' : '';
    return { tripSlug, key: `${path}|${departure}`, query };
  }
  return { tripSlug, key: `${markdown}|${path}`, query };
}

export function departuresFunction(): LiveFunction {
  const admit = renderQuota();
  return liveFunction('departures', async (request, url) => {
    if (apiPath(url.pathname).kind !== 'not-api') return apiDepartures(request, url);
    if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed(request.method, 'GET, HEAD');
    const path = url.pathname;
    const trip = tripPath.exec(path);
    const markdown = prefersMarkdown(request.headers.get('Accept'));
    const { tripSlug, key, query } = await answerInputs(path, url, markdown);
    const response = await keptWhileFresh(request, admit, tripSlug, key, async () => {
      if (path === '/departures' || path === '/departures/') return board(request, query);
      if (path === '/departures/block') return block(runtimeCatalogue().trips.find((p) => p.trip.slug === tripSlug));
      if (path === '/departures.md') return departuresFile('.md', query);
      if (path === '/departures.ics') return departuresFile('.ics', query);
      if (!trip) return notServedHere(url);
      if (trip[3] === '/enquire') {
        const page = runtimeCatalogue().trips.find((p) => p.trip.slug === tripSlug && p.path === `/${trip[1]}/${trip[2]}`);
        return page ? enquire(page, declaredQuery(url).get(departureParam) ?? undefined) : tripMiss(trip[1] ?? '', trip[2] ?? '');
      }
      // A trip page path without an extension arrives here when Markdown was asked for, or when
      // no page was built at that address.
      if (!trip[3] && !markdown) return tripMiss(trip[1] ?? '', trip[2] ?? '');
      return tripTwinOrCalendar(trip[1] ?? '', trip[2] ?? '', trip[3] === '.ics' ? '.ics' : '.md');
    });
    return withoutBodyForHead(request, response);
  });
}
