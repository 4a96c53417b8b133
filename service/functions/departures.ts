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
 * One route table (`routes`) says, for each of these paths, what its answer is kept under and
 * how it is made. Query parameters other than the ones listed are ignored, and answers are kept
 * under the parameters a path reads (canonical filters, a known trip, a known departure), not
 * under the raw address. The one exception is the API's `/v1/departures` (apiDepartures): the
 * operation answers each query as sent (a parameter it does not know, or a malformed one, is its
 * 400), so its answer is kept under the path and query as asked, beside the read it was made from.
 *
 * A trip page asked for with `Accept: text/markdown` reaches this function at its own path
 * (the request rules route it here) and is answered with its twin.
 *
 * Departures are read at most once a second per trip (service/departures/recent-reads.ts), and
 * every answer made from a read is kept for as long as the read is fresh, so a busy page costs one
 * query and one rendering a second, not one per visitor.
 */
import { tripBySlug, tripSection, type Catalogue, type TripPage } from '../../domain/catalogue/index.ts';
import { departuresBlock } from '../departures/board-html.ts';
import { boardDepartures, boardMain } from '../departures/board-page.ts';
import {
  applyBoardFilters,
  boardQueryKey,
  filtersInWords,
  readBoardQuery,
  refusedSentence,
  type BoardQuery,
} from '../departures/board-filters.ts';
import { readSearch } from '../departures/search.ts';
import { enquiryPage } from '../bookings/enquiry-page.ts';
import { departureParam, groupSizeParam } from '../departures/enquiry-link.ts';
import { groupSizeCap } from '../bookings/enquiry.ts';
import type { LiveDepartures } from '../departures/live.ts';
import { cachePolicy, liveCachePolicy } from '../http/cache-policy.ts';
import { departuresMarkdown } from '../markdown/departures.ts';
import { markdownResponse } from '../markdown/response.ts';
import { findTripPage, tripMarkdown, tripNotFoundMarkdown } from '../markdown/trip.ts';
import { prefersMarkdown } from '../rules/negotiation.ts';
import type { V1Deps } from '../v1/operations.ts';
import {
  liveFunction,
  methodNotAllowed,
  notServedHere,
  plainText,
  withoutBodyForHead,
  type LiveFunction,
} from './live-function.ts';
import { departuresJsonLd } from '../../domain/page/structured-data.ts';
import { html } from '../../domain/html.ts';
import { htmlResponse, liveBlockHtml, livePageHtml } from './page-shell.ts';
import { BoundedMemo } from '../http/bounded-memo.ts';
import { notModifiedResponse } from '../http/not-modified.ts';
import { withUrl } from '../http/request-url.ts';
import { matchesEtag } from '../http/respond.ts';
import { acceptsJson } from '../http/accept-json.ts';
import { declaredQuery } from './live-queries.ts';
import { liveDepartures, type LiveDepartureReads } from './live-storage.ts';
import { renderQuota, type RenderAdmission } from './render-quota.ts';
import type { LiveDeps } from './runtime.ts';
import type { SiteBuild } from './site-build.ts';
import { quoted } from '../http/quoted.ts';
import { feedHeadLinks } from '../departures/feed-links.ts';

/** What the function of one build works with: the build, its view of the departures, its kept answers. */
interface BuildDepartures {
  build: SiteBuild;
  departures: LiveDepartureReads;
  clock: () => Date;
  kept: BoundedMemo<KeptAnswer>;
}

/** The calendar writer (and ical-generator), loaded with the first calendar asked for rather than with the function. */
const calendars = () => import('../calendar/departures.ts');

/** The /v1 handler, loaded with the first /v1/departures request: the pages do not need it. */
const handleV1: typeof import('../v1/index.ts').handleV1 = async (request, deps, memo) =>
  (await import('../v1/index.ts')).handleV1(request, deps, memo);

/** One request to a page route, as every route reads it. */
interface Ask {
  request: Request;
  url: URL;
  deps: BuildDepartures;
  catalogue: Catalogue;
  /** The parameters the path declares (live-queries.ts), read once. */
  declared: URLSearchParams;
  /** The client asked for Markdown. */
  markdown: boolean;
}

/** What a route answers with: the trip whose read it is made from, the key it is kept under, and how it is made. */
interface Answer {
  tripSlug: string | undefined;
  key: string;
  make(): Promise<Response> | Response;
}

type Route = (ask: Ask, match: RegExpExecArray) => Answer | Promise<Answer>;

const sections = Object.values(tripSection).join('|');
const sectionType = Object.fromEntries(Object.entries(tripSection).map(([type, section]) => [section, type])) as Record<
  string,
  'trek' | 'expedition'
>;

/** The slug of a trip we run, or undefined. */
function known(catalogue: Catalogue, slug: string | null | undefined): string | undefined {
  return tripBySlug(catalogue, slug)?.trip.slug;
}

/**
 * The departure search as a page, its Markdown or its calendar, kept under its filters' accepted
 * values. The page and the Markdown leave a filter they cannot use out and say so; a calendar,
 * which an app shows without that sentence, is refused (400) with the reason instead.
 */
function search(format: 'html' | 'md' | 'ics'): Route {
  return (ask) => {
    const query = readBoardQuery(ask.declared, ask.catalogue, ask.deps.clock());
    const shown = format === 'html' && ask.markdown ? 'md' : format;
    return {
      tripSlug: query.filters.trip,
      key: `${shown}|/departures${boardQueryKey(query)}`,
      make: () =>
        shown === 'html'
          ? board(ask, query)
          : shown === 'ics' && query.ignored.length > 0
            ? plainText(400, refusedSentence(query.ignored))
            : departuresFile(ask, shown, query),
    };
  };
}

/** One trip's departures as a document of their own: framed by its page without JavaScript, or the block taken out of it by /live-departures.js. */
const block: Route = (ask) => {
  const page = tripBySlug(ask.catalogue, ask.declared.get('trip'));
  return { tripSlug: page?.trip.slug, key: `block|${page?.trip.slug ?? ''}`, make: () => blockAnswer(ask, page) };
};

/** The group size an address carries for a trip: a whole number from 1 to the trip's cap, else none. */
function groupSizeFor(page: TripPage | undefined, text: string | null): number | undefined {
  if (!page || text === null || !/^[1-9][0-9]{0,2}$/.test(text)) return undefined;
  const size = Number(text);
  return size <= groupSizeCap(page.trip.groupSize) ? size : undefined;
}

/**
 * A trip's enquiry form, with a departure's dates when the address names one of the trip's, and
 * the group size a search was made for.
 */
const enquire: Route = async (ask, [path, section = '', slug = '']) => {
  const tripSlug = known(ask.catalogue, slug);
  // Kept under the departure only when it is one of the trip's: any other value gets the same page.
  const wanted = ask.declared.get(departureParam) ?? '';
  const live = tripSlug && wanted ? await ask.deps.departures.live(tripSlug) : undefined;
  const departure = live?.state === 'live' && live.departures.some((d) => d.id === wanted) ? wanted : wanted ? '?' : '';
  const groupSize = groupSizeFor(tripBySlug(ask.catalogue, tripSlug), ask.declared.get(groupSizeParam));
  return {
    tripSlug,
    key: `${path}|${departure}|${groupSize ?? ''}`,
    make: () => {
      const page = tripBySlug(ask.catalogue, tripSlug);
      return page?.path === `/${section}/${slug}`
        ? enquiryAnswer(ask, page, { departureId: wanted || undefined, groupSize })
        : tripMiss(ask.deps.build, section, slug);
    },
  };
};

/**
 * A trip's twin or calendar. A trip page path without an extension arrives here when Markdown
 * was asked for, or when no page was built at that address.
 */
const trip: Route = (ask, [path, section = '', slug = '', format]) => ({
  tripSlug: known(ask.catalogue, slug),
  key: `${ask.markdown}|${path}`,
  make: () =>
    !format && !ask.markdown
      ? tripMiss(ask.deps.build, section, slug)
      : twinOrCalendar(ask, section, slug, format === '.ics' ? '.ics' : '.md'),
});

/** The page routes, first match wins. */
const routes: readonly (readonly [RegExp, Route])[] = [
  [/^\/departures\/?$/, search('html')],
  [/^\/departures\.md$/, search('md')],
  [/^\/departures\.ics$/, search('ics')],
  [/^\/departures\/block$/, block],
  [new RegExp(`^/(${sections})/([^/]+?)/enquire/?$`), enquire],
  [new RegExp(`^/(${sections})/([^/]+?)(\\.md|\\.ics)?/?$`), trip],
];

/** A path no route takes (for example `/api/departures`, asked for directly). */
const elsewhere = (ask: Ask): Answer => ({
  tripSlug: undefined,
  key: `${ask.markdown}|${ask.url.pathname}`,
  make: () => notServedHere(ask.url),
});

async function twinOrCalendar(ask: Ask, section: string, slug: string, format: '.md' | '.ics'): Promise<Response> {
  const { catalogue } = ask;
  const type = sectionType[section] ?? 'trek';
  const page = findTripPage(catalogue, type, slug);
  if (format === '.md') {
    if (!page) return markdownResponse(tripNotFoundMarkdown(catalogue, type, slug), { status: 404 });
    const live = await ask.deps.departures.live(page.trip.slug);
    return markdownResponse(tripMarkdown(catalogue, page, live), { cacheControl: liveCachePolicy(live) });
  }
  if (!page)
    return plainText(
      404,
      `There is no ${type} ${quoted(slug) ? `called ${quoted(slug)}` : 'at this address'}. The trips are listed at ${catalogue.siteUrl}/departures.`,
    );
  const { calendarResponse } = await calendars();
  return calendarResponse(catalogue, await ask.deps.departures.live(page.trip.slug), {
    page,
    fileName: `${page.trip.slug}.ics`,
  });
}

/**
 * A trip address with no built page: the trip in the other section moves there (301); otherwise
 * a page that says so and lists the trips of that section (404).
 */
function tripMiss(build: SiteBuild, section: string, slug: string): Response {
  const catalogue = build.catalogue();
  const moved = tripBySlug(catalogue, slug);
  if (moved)
    return new Response(null, {
      status: 301,
      headers: { Location: moved.path, 'Cache-Control': cachePolicy.published },
    });
  const type = sectionType[section] ?? 'trek';
  const pages = catalogue.trips.filter((p) => p.trip.type === type).slice(0, 24);
  const body = livePageHtml(build, 'page', {
    title: 'Trip not found',
    description: 'There is no trip at this address.',
    canonicalPath: `/${section}`,
    noindex: true,
    main: html`<h1>We have no trip at this address</h1>
<p>The link may be old or mistyped. Some of the ${section} we run (all of them are on <a href="${`/${section}`}">the ${section} page</a>):</p>
<ul>${pages.map((p) => html`<li><a href="${p.path}">${p.trip.name}</a></li>`)}</ul>
<p>Every page is listed in the <a href="/sitemap-index.xml">sitemap</a>.</p>`,
  });
  return htmlResponse(body, { status: 404, headers: { 'Cache-Control': cachePolicy.never } });
}

async function board(ask: Ask, query: BoardQuery): Promise<Response> {
  const { catalogue } = ask;
  const chosen = tripBySlug(catalogue, query.filters.trip);
  const live = await ask.deps.departures.live(chosen?.trip.slug);
  const words = filtersInWords(query.filters, catalogue);
  const shown = boardDepartures(catalogue, live, query.filters);
  const body = livePageHtml(ask.deps.build, 'departures', {
    title: words.length > 0 ? `Departures: ${words.join(', ')}` : 'Departures: live availability',
    description: `Upcoming departures of ${chosen ? chosen.trip.name : `${catalogue.site.operatorName}'s Himalayan treks and expeditions`}, searchable by dates, difficulty, length, group size and budget, with seats left and prices in rupees, read live.`,
    canonicalPath: '/departures',
    markdownPath: '/departures.md',
    feeds: feedHeadLinks(query.filters, words.length > 0 ? `Changes: ${words.join(', ')}` : 'Departure changes'),
    main: boardMain(catalogue, live, { query, now: ask.deps.clock() }),
    ...(live.state === 'live' ? { jsonLd: departuresJsonLd(catalogue, shown) } : {}),
  });
  return htmlResponse(body, { headers: { 'Cache-Control': liveCachePolicy(live), Vary: 'Accept' } });
}

async function blockAnswer(ask: Ask, page: TripPage | undefined): Promise<Response> {
  if (!page) return plainText(404, 'Name a trip: /departures/block?trip=<slug>, with a slug from /v1/trips.');
  const live = await ask.deps.departures.live(page.trip.slug);
  const body = liveBlockHtml(
    ask.deps.build,
    `Live departures of ${page.trip.name}`,
    html`<div class="departures-compact">${departuresBlock(ask.catalogue, live, { page, now: ask.deps.clock() })}</div>`,
  );
  return htmlResponse(body, { headers: { 'Cache-Control': liveCachePolicy(live) } });
}

async function enquiryAnswer(
  ask: Ask,
  page: TripPage,
  chosen: { departureId: string | undefined; groupSize: number | undefined },
): Promise<Response> {
  const live = await ask.deps.departures.live(page.trip.slug);
  const answer = enquiryPage(page, live, { ...chosen, now: ask.deps.clock() });
  const body = livePageHtml(ask.deps.build, 'page', {
    title: answer.title,
    description: answer.description,
    canonicalPath: page.path,
    noindex: true,
    main: answer.main,
  });
  return htmlResponse(body, {
    status: answer.status,
    headers: { 'Cache-Control': answer.status === 200 ? liveCachePolicy(live) : cachePolicy.never },
  });
}

async function departuresFile(ask: Ask, format: 'md' | 'ics', query: BoardQuery): Promise<Response> {
  const { catalogue } = ask;
  const live = await ask.deps.departures.live(query.filters.trip);
  if (format === 'md')
    return markdownResponse(departuresMarkdown(catalogue, live, { query }), { cacheControl: liveCachePolicy(live) });
  const found: LiveDepartures =
    live.state === 'live'
      ? { state: 'live', departures: applyBoardFilters(live.departures, query.filters, catalogue) }
      : live;
  const { calendarResponse } = await calendars();
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
 * its catalogue and frames), since the function is made per build.
 */
const keptAnswers = () =>
  new BoundedMemo<KeptAnswer>(1000, { maxBytes: 8 * 2 ** 20, sizeOf: (answer) => answer.body.byteLength + 1024 });

/**
 * The answer `make` gives, kept under `key` for as long as the departures read it is made from
 * (the read of `tripSlug`'s departures, or of all) is fresh. Failures are never kept. Making
 * one afresh first asks `admit` (the render quota), which may answer instead.
 */
async function keptWhileFresh(
  deps: BuildDepartures,
  request: Request,
  url: URL,
  admit: RenderAdmission | null,
  answer: Answer,
): Promise<Response> {
  const { kept } = deps;
  const readId = await deps.departures.readId(answer.tripSlug);
  const memoKey = readId === null ? null : `${readId}|${answer.key}`;
  if (admit && (memoKey === null || !kept.has(memoKey))) {
    const refused = await admit(request, url);
    if (refused) return refused;
  }
  if (memoKey === null) return answer.make();
  const made = await kept
    .answer(memoKey, async () => {
      const response = await answer.make();
      if (response.status >= 500) throw Object.assign(new Error('not kept'), { response });
      return {
        status: response.status,
        headers: [...response.headers],
        body: new Uint8Array(await response.arrayBuffer()),
      };
    })
    .catch((error: unknown) => {
      const response = (error as { response?: Response }).response;
      if (response) return response;
      throw error;
    });
  return made instanceof Response
    ? made
    : new Response(made.body.slice(), { status: made.status, headers: made.headers });
}

/** The API's view of the instance's departures, with the build's catalogue. */
function v1Deps(deps: BuildDepartures): V1Deps {
  return { catalogue: deps.build.catalogue(), departures: deps.departures.source() };
}

/** GET /v1/departures: the API's answer, kept per read; conditional requests and HEAD are worked out from it. */
async function apiDepartures(deps: BuildDepartures, request: Request, url: URL): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return handleV1(request, v1Deps(deps));
  const json = acceptsJson(request.headers.get('Accept'));
  // The operation reads the same URL, so its search (the trip among it) is read once.
  const plain = withUrl(new Request(url, { headers: { Accept: json ? 'application/json' : 'text/html' } }), url);
  let trip: string | undefined;
  try {
    trip = readSearch(url).trip;
  } catch {
    // A search the operation refuses (400) is kept with the read of all departures.
  }
  const tripSlug = known(deps.build.catalogue(), trip);
  const answer = await keptWhileFresh(deps, request, url, null, {
    tripSlug,
    key: `api|${json}|${url.pathname}${url.search}`,
    make: () => handleV1(plain, v1Deps(deps)),
  });
  const etag = answer.headers.get('ETag');
  if (answer.status === 200 && etag && matchesEtag(request.headers.get('If-None-Match'), etag))
    return notModifiedResponse(answer.headers);
  return withoutBodyForHead(request, answer);
}

/** The departures function of one build, on the instance's storage and render quota. */
export function departuresFunction(live: LiveDeps): LiveFunction {
  const admit = renderQuota(live);
  const deps: BuildDepartures = {
    build: live.build,
    departures: liveDepartures(live),
    clock: live.clock,
    kept: keptAnswers(),
  };
  return liveFunction('departures', live.build, async (request, { url, api }) => {
    if (api.kind !== 'not-api') return apiDepartures(deps, request, url);
    if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed(request.method, 'GET, HEAD');
    const ask: Ask = {
      request,
      url,
      deps,
      catalogue: deps.build.catalogue(),
      declared: declaredQuery(url),
      markdown: prefersMarkdown(request.headers.get('Accept')),
    };
    let answer: Answer | undefined;
    for (const [pattern, route] of routes) {
      const match = pattern.exec(url.pathname);
      if (match) {
        answer = await route(ask, match);
        break;
      }
    }
    const response = await keptWhileFresh(deps, request, url, admit, answer ?? elsewhere(ask));
    return withoutBodyForHead(request, response);
  });
}
