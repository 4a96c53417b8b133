/**
 * The changes of any board search as feeds, for anyone, without an account: Atom (RFC 4287,
 * written by the `feed` package) at /departures/feed.atom and JSON Feed 1.1 at
 * /departures/feed.json, with the board's parameters (board-filters.ts, over search.ts). Both
 * list the same entries: the latest changes (service/departures/changes.ts) of departures the
 * search finds before or after the change (matching.ts `inFeed`), still on the board, newest
 * first. An entry's id is its change's and never changes, so a reader shows each change once.
 * The MCP resource of a search's changes is the JSON Feed (service/mcp/resources.ts).
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { tripBySlug } from '../../domain/catalogue/index.ts';
import { boardSearch, filtersInWords, type BoardFilters } from '../departures/board-filters.ts';
import type { DepartureChange, DepartureChangeLog } from '../departures/changes.ts';
import { dateRange } from '../departures/departure-words.ts';
import { enquiryHref } from '../departures/enquiry-link.ts';
import { todayInIndia } from '../departures/today.ts';
import { changeSentence, inFeed } from './matching.ts';
import { feedLinks } from '../departures/alert-paths.ts';

/** Entries a feed lists at most, and how many of the latest changes it chooses them from. */
const feedLimits = { entries: 50, scanned: 2000 } as const;

export const feedMediaTypes = {
  atom: 'application/atom+xml; charset=utf-8',
  json: 'application/feed+json; charset=utf-8',
} as const;

/** One entry, as both formats write it. */
interface Entry {
  id: string;
  title: string;
  url: string;
  text: string;
  date: Date;
  change: DepartureChange;
}

/** The feed's entries for a search: changes of departures it finds, before or after, newest first. */
export async function feedEntries(
  log: DepartureChangeLog,
  catalogue: Catalogue,
  filters: BoardFilters,
  now: Date,
): Promise<Entry[]> {
  const latest = await log.latest({ today: todayInIndia(now), limit: feedLimits.scanned, tripSlug: filters.trip });
  const host = new URL(catalogue.siteUrl).host;
  return latest
    .filter((change) => inFeed(change, filters, catalogue))
    .slice(0, feedLimits.entries)
    .map((change) => {
      const page = tripBySlug(catalogue, change.after.tripSlug);
      const trip = page?.trip.name ?? change.after.tripSlug;
      const sentence = changeSentence(change.kinds, change, catalogue);
      const url = page
        ? `${catalogue.siteUrl}${enquiryHref(page, change.departureId)}`
        : `${catalogue.siteUrl}/departures`;
      return {
        // A tag URI (RFC 4151) naming the change: the same in both formats, for as long as the change is listed.
        id: `tag:${host},2026:departure-change:${change.id}`,
        title: `${trip}, ${dateRange(change.after)}: ${sentence.charAt(0).toLowerCase()}${sentence.slice(1)}`,
        url,
        text: `${trip}, ${dateRange(change.after)}. ${sentence}. Seats and price now, and the enquiry form: ${url}`,
        date: change.recordedAt,
        change,
      };
    });
}

/** What both formats say of the feed itself. */
function feedHead(catalogue: Catalogue, filters: BoardFilters, entries: readonly Entry[]) {
  const words = filtersInWords(filters, catalogue);
  const links = feedLinks(filters);
  return {
    title: `Departure changes: ${words.length > 0 ? words.join(', ') : 'every departure'} | ${catalogue.site.operatorName}`,
    description: `New dates, seats opened, lower prices, status changes and cancellations of ${catalogue.site.operatorName}'s departures${words.length > 0 ? ` that match: ${words.join(', ')}` : ''}, newest first.`,
    home: `${catalogue.siteUrl}/departures${boardSearch(filters)}`,
    atom: `${catalogue.siteUrl}${links.atom}`,
    json: `${catalogue.siteUrl}${links.json}`,
    // The newest entry, or, for a feed with none yet, the day the site's data was last updated: a stable time either way.
    updated: entries[0]?.date ?? new Date(`${catalogue.site.dataset.lastUpdated}T00:00:00Z`),
    author: { name: catalogue.site.operatorName, url: catalogue.siteUrl },
  };
}

/** The JSON Feed 1.1 document (jsonfeed.org/version/1.1). */
export function jsonFeed(catalogue: Catalogue, filters: BoardFilters, entries: readonly Entry[]): string {
  const head = feedHead(catalogue, filters, entries);
  const feed = {
    version: 'https://jsonfeed.org/version/1.1',
    title: head.title,
    home_page_url: head.home,
    feed_url: head.json,
    description: head.description,
    language: 'en-IN',
    authors: [head.author],
    items: entries.map((entry) => ({
      id: entry.id,
      url: entry.url,
      title: entry.title,
      content_text: entry.text,
      date_published: entry.date.toISOString(),
      tags: entry.change.kinds,
      // The change as data, for programs (an extension, as JSON Feed names its own keys with `_`).
      _departure_change: {
        departure_id: entry.change.departureId,
        trip_slug: entry.change.tripSlug,
        kinds: entry.change.kinds,
        before: entry.change.before,
        after: entry.change.after,
      },
    })),
  };
  return `${JSON.stringify(feed, null, 2)}\n`;
}

/** The Atom document (RFC 4287). */
export async function atomFeed(
  catalogue: Catalogue,
  filters: BoardFilters,
  entries: readonly Entry[],
): Promise<string> {
  const { Feed } = await import('feed');
  const head = feedHead(catalogue, filters, entries);
  const feed = new Feed({
    id: head.atom,
    title: head.title,
    description: head.description,
    link: head.home,
    language: 'en-IN',
    updated: head.updated,
    generator: false,
    feedLinks: { atom: head.atom },
    author: { name: head.author.name, link: head.author.url },
    copyright: `${catalogue.site.operatorName}`,
  });
  for (const entry of entries)
    feed.addItem({
      id: entry.id,
      title: entry.title,
      link: entry.url,
      date: entry.date,
      published: entry.date,
      description: entry.text,
      category: entry.change.kinds.map((kind) => ({ term: kind, name: kind })),
    });
  return feed.atom1();
}
