/**
 * Where a search's feeds are linked: in words under the board's results, and as `rel="alternate"`
 * links in the head of the board and of every trip page (domain/page-head.ts writes them), so a
 * feed reader given either page finds them.
 */
import { html, type SafeHtml } from '../../domain/html.ts';
import type { BoardFilters } from './board-filters.ts';
import type { FeedLink } from '../../domain/page/page-head.ts';
import { feedLinks, feedTypes } from './alert-paths.ts';

/** "Its changes as a feed: Atom or JSON Feed." */
export function feedSentence(filters: BoardFilters): SafeHtml {
  const links = feedLinks(filters);
  return html`Its changes (new dates, seats opened, lower prices, cancellations) as a feed: <a href="${links.atom}" type="${feedTypes.atom}">Atom</a> or <a href="${links.json}" type="${feedTypes.json}">JSON Feed</a>.`;
}

/** The head's links to the feeds of a search. */
export function feedHeadLinks(filters: BoardFilters, title: string): FeedLink[] {
  const links = feedLinks(filters);
  return [
    { type: feedTypes.atom, href: links.atom, title: `${title} (Atom)` },
    { type: feedTypes.json, href: links.json, title: `${title} (JSON Feed)` },
  ];
}
