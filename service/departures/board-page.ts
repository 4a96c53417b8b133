/**
 * The departures board (`/departures`): the departure search. Its form (search-form.ts), folded
 * behind a summary that names what it searches by, or once a search is made what was chosen, so
 * that on a phone the first date is on the first screen (a first visit's open form took half of
 * a 360 x 800 screen), then the
 * departures that match, in start-date order, grouped by the month they start in. Each month is a
 * `<details>` whose summary says how many departures it holds, how many are open and from what
 * price; only the first months are open when there are many, so the page stays a few screens long
 * on a phone and still needs no JavaScript. A search that finds nothing names the single changes
 * that would find something (relaxation.ts).
 */
import { tripBySlug, type Catalogue } from '../../domain/catalogue/index.ts';
import { formatInr, formatMonth } from '../../domain/format.ts';
import { html, type SafeHtml } from '../../domain/html.ts';
import type { Departure } from '../../domain/schemas/departure.ts';
import { departureCard, departuresBlock } from './board-html.ts';
import { tripSearchFacts } from '../../domain/catalogue/trip-facts.ts';
import {
  applyBoardFilters,
  boardSearch,
  byMonth,
  filtersInWords,
  hasFilters,
  ignoredSentence,
  monthAsDates,
  monthFacts,
  type BoardFilters,
  type BoardQuery,
} from './board-filters.ts';
import type { LiveDepartures } from './live.ts';
import { relaxations } from './relaxation.ts';
import { searchForm } from './search-form.ts';
import { readAt } from './departure-words.ts';
import { searchWatchForm } from './alert-forms.ts';
import { feedSentence } from './feed-links.ts';

/** Months are shown open, in order, until this many departures are in view. */
const openUntil = 6;

function monthGroups(catalogue: Catalogue, departures: readonly Departure[], filters: BoardFilters): SafeHtml {
  let inView = 0;
  return html`${byMonth(departures).map((group) => {
    const open = inView < openUntil;
    inView += group.departures.length;
    return html`<details class="board-month" id="${`month-${group.month}`}"${open ? html` open` : ''}>
<summary><h2>${formatMonth(group.month)}</h2> <span class="board-month-facts">${monthFacts(group.departures)}</span></summary>
<ul class="departure-cards" aria-label="${`Departures in ${formatMonth(group.month)}`}">${group.departures.map((d) => departureCard(catalogue, d, filters.trip === undefined, filters.minSeats))}</ul>
</details>`;
  })}`;
}

/** The filters, folded behind a summary: what they search by, or once chosen, what was chosen. */
function filters(catalogue: Catalogue, chosen: BoardFilters): SafeHtml {
  const words = filtersInWords(chosen, catalogue);
  return html`<details class="search-filters no-print">
<summary><span class="search-filters-title">${words.length === 0 ? 'Search' : 'Change the search'}</span> <span class="search-filters-words">${words.length > 0 ? words.join(', ') : 'by dates, kind of trip, length, people and budget'}</span></summary>
${searchForm(catalogue, chosen, { fields: 'board' })}
</details>`;
}

function summary(
  catalogue: Catalogue,
  all: readonly Departure[],
  shown: readonly Departure[],
  chosen: BoardFilters,
): SafeHtml {
  const words = filtersInWords(chosen, catalogue);
  const count = shown.length === 1 ? '1 departure' : `${shown.length} departures`;
  if (words.length === 0) {
    const months = byMonth(shown).length;
    return html`<p class="board-summary"><strong>${count}</strong> in ${months === 1 ? '1 month' : `${months} months`}, earliest first. Open a month to see its dates, or search by dates, difficulty, length, group size and budget above.</p>`;
  }
  if (shown.length === 0) {
    const changes = relaxations(all, chosen, catalogue);
    return html`<div class="notice board-summary">
<p>No departures match this search.</p>
${
  changes.length > 0
    ? html`<p>Change one filter:</p>
<ul class="relaxations">${changes.map((c) => html`<li><a href="${`/departures${c.search}`}">${c.words}</a></li>`)}</ul>
<p>Or <a href="/departures">show every departure</a>.</p>`
    : html`<p>No change of one filter finds a date. Change the search above, or <a href="/departures">show every departure</a>.</p>`
}
</div>`;
  }
  // The search itself is in words just above, on the folded form.
  return html`<p class="board-summary"><strong>${count}</strong> found, earliest first. <a href="/departures">Show every departure</a>.</p>`;
}

/**
 * The main content of the board. `live` is the read the filters apply to: every departure, or the
 * chosen trip's.
 */
export function boardMain(
  catalogue: Catalogue,
  live: LiveDepartures,
  options: { query: BoardQuery; now: Date },
): SafeHtml {
  const { query, now } = options;
  const chosen = query.filters;
  const trip = tripBySlug(catalogue, chosen.trip);
  // One trip and nothing else: that trip's own calendar; otherwise the calendar of this search.
  const calendar =
    trip && boardSearch(chosen) === `?trip=${trip.trip.slug}`
      ? { href: `${trip.path}.ics`, name: `${trip.trip.slug}.ics` }
      : { href: `/departures.ics${boardSearch(chosen)}`, name: 'departures.ics' };
  const shown = boardDepartures(catalogue, live, chosen);
  const searching = hasFilters(chosen);
  return html`<h1>Departures</h1>
${searching ? '' : html`<p class="lead">Upcoming group departures of our treks and expeditions, with the seats left and the price per person. A guide confirms every seat after you enquire.</p>`}
${filters(catalogue, chosen)}
${query.ignored.length > 0 ? html`<p class="notice">${ignoredSentence(query.ignored)}</p>` : ''}
${trip ? html`<p>About the trip: <a href="${trip.path}">${trip.trip.name}</a> (${tripSearchFacts(trip)}; ${formatInr(trip.trip.priceInr)}${trip.trip.priceInr != null ? ' per person' : ''}).</p>` : ''}
<div id="search-results" class="search-results" tabindex="-1" data-search-results>
${
  live.state !== 'live' || live.departures.length === 0
    ? html`${departuresBlock(catalogue, live, { page: trip, now })}${live.state === 'live' ? searchWatchForm(chosen) : ''}`
    : html`${summary(catalogue, live.departures, shown, chosen)}
<div class="departures-live" data-live-departures="live">
${monthGroups(catalogue, shown, chosen)}
${searchWatchForm(chosen)}
<p class="muted departures-read">Seats and prices read live at ${readAt(now)}. A guide confirms every seat after you enquire.</p>
</div>`
}
</div>
${live.state === 'live' ? html`<p class="muted">This search also as <a href="${`/departures.md${boardSearch(chosen)}`}">Markdown</a>, as <a href="${`/v1/departures${apiSearch(chosen)}`}">JSON</a> and as a calendar you can subscribe to: <a href="${calendar.href}">${calendar.name}</a>. ${feedSentence(chosen)}</p>` : ''}
<script src="/departure-search.js" defer></script>
<script src="/alerts.js" defer></script>`;
}

/** The same search as /v1 query text: the API has no `month`, so a month is its first and last day. */
function apiSearch(chosen: BoardFilters): string {
  return boardSearch(monthAsDates(chosen));
}

/** The departures the board shows for these filters (for its structured data). */
export function boardDepartures(catalogue: Catalogue, live: LiveDepartures, filters: BoardFilters): Departure[] {
  return live.state === 'live' ? applyBoardFilters(live.departures, filters, catalogue) : [];
}
