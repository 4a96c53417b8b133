/**
 * The addresses of alerts and feeds, named once: the alerts function answers them (vercel.json
 * sends them there on both hosts), and the board, the trip pages, the mails, departures.md,
 * llms.txt and the MCP server link them.
 */
import { boardSearch, type BoardFilters } from './board-filters.ts';

export const alertPaths = {
  /** What alerts are, what is kept and for how long (a page of the site). */
  about: '/alerts',
  /** POST: watch a date or a search. */
  watch: '/alerts/watch',
  /** GET: the page with the button; POST: confirms. `?token=` */
  confirm: '/alerts/confirm',
  /** GET: the page with the buttons; POST: stops (RFC 8058 one-click, no cookies). `?token=` */
  unsubscribe: '/alerts/unsubscribe',
  /** GET with `Authorization: Bearer $CRON_SECRET`: one run of the alert job (Vercel Cron). */
  run: '/alerts/run',
} as const;

export const feedPaths = {
  atom: '/departures/feed.atom',
  json: '/departures/feed.json',
} as const;

export const feedTypes = {
  atom: 'application/atom+xml',
  json: 'application/feed+json',
} as const;

/** The feeds of a board search (its canonical filters), as site paths. */
export function feedLinks(filters: BoardFilters): { atom: string; json: string } {
  const search = boardSearch(filters);
  return { atom: `${feedPaths.atom}${search}`, json: `${feedPaths.json}${search}` };
}

/** How long things are kept (docs/alerts.md and the /alerts page say the same). */
export const retention = {
  /** A confirmation link works this long; an unconfirmed watch goes at the job's first run after, so within a day. */
  confirmHours: 23,
  /** A search without an end date is watched this long after it was asked for. */
  searchDays: 365,
  /** At most one alert per watch in this many hours. */
  alertEveryHours: 24,
  /** The change log behind the alerts and the feeds. */
  changesDays: 90,
} as const;
