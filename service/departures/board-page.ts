/**
 * The departures board (`/departures`): a GET form of filters (board-filters.ts), then the
 * departures that match, grouped by the month they start in. Each month is a `<details>` whose
 * summary says how many departures it holds, how many are open and from what price; only the
 * first month is open when there are many, so the page stays a few screens long on a phone and
 * still needs no JavaScript.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { formatInr, formatMonth } from '../../domain/format.ts';
import { html, type SafeHtml } from '../../domain/html.ts';
import type { Departure } from '../../domain/schemas/departure.ts';
import { tripTypes } from '../../domain/schemas/vocabulary.ts';
import { departureCard, departuresBlock } from './board-html.ts';
import {
  acceptedMonths,
  applyBoardFilters,
  boardSearch,
  byMonth,
  monthFacts,
  filtersInWords,
  ignoredSentence,
  monthOf,
  seatThresholds,
  seatsLabel,
  typeLabel,
  type BoardFilters,
  type BoardQuery,
} from './board-filters.ts';
import type { LiveDepartures } from './live.ts';
import { readAt } from '../markdown/departures.ts';

/** Months are shown open, in order, until this many departures are in view. */
const openUntil = 6;

function option(value: string, label: string, chosen: string | number | undefined): SafeHtml {
  return html`<option value="${value}"${String(chosen ?? '') === value ? html` selected` : ''}>${label}</option>`;
}

function filterForm(catalogue: Catalogue, filters: BoardFilters, months: readonly string[]): SafeHtml {
  return html`<form method="get" action="/departures" class="finder board-filters no-print" aria-label="Filter departures">
<div class="fields">
<div><label for="board-month">Month</label><select id="board-month" name="month">${option('', 'Any month', filters.month)}${months.map((m) => option(m, formatMonth(m), filters.month))}</select></div>
<div><label for="board-type">Kind of trip</label><select id="board-type" name="type">${option('', 'Any kind', filters.type)}${tripTypes.map((t) => option(t, typeLabel[t], filters.type))}</select></div>
<div><label for="board-seats">Seats left</label><select id="board-seats" name="seats">${option('', 'Any', filters.seats)}${seatThresholds.map((n) => option(String(n), seatsLabel(n), filters.seats))}</select></div>
<div><label for="board-trip">Trip</label><select id="board-trip" name="trip">${option('', 'All trips', filters.trip)}${catalogue.trips.map(({ trip }) => option(trip.slug, trip.name, filters.trip))}</select></div>
</div>
<button type="submit">Show departures</button>
</form>`;
}

function monthGroups(catalogue: Catalogue, departures: readonly Departure[], filters: BoardFilters): SafeHtml {
  let inView = 0;
  return html`${byMonth(departures).map((group) => {
    const open = inView < openUntil;
    inView += group.departures.length;
    return html`<details class="board-month" id="${`month-${group.month}`}"${open ? html` open` : ''}>
<summary><h2>${formatMonth(group.month)}</h2> <span class="board-month-facts">${monthFacts(group.departures)}</span></summary>
<ul class="departure-cards" aria-label="${`Departures in ${formatMonth(group.month)}`}">${group.departures.map((d) => departureCard(catalogue, d, filters.trip === undefined))}</ul>
</details>`;
  })}`;
}

/** The months the form offers: those with departures in this read (or the next twelve when nothing could be read), and the chosen one. */
function monthChoices(live: LiveDepartures, filters: BoardFilters, now: Date): string[] {
  const accepted = acceptedMonths(now);
  const months = new Set(live.state === 'live' ? live.departures.map(monthOf).filter((m) => accepted.includes(m)) : accepted.slice(0, 12));
  if (filters.month) months.add(filters.month);
  return [...months].sort();
}

function summary(catalogue: Catalogue, shown: readonly Departure[], filters: BoardFilters): SafeHtml {
  const words = filtersInWords(filters, catalogue);
  const count = shown.length === 1 ? '1 departure' : `${shown.length} departures`;
  if (words.length === 0) {
    const months = byMonth(shown).length;
    return html`<p class="board-summary"><strong>${count}</strong> in ${months === 1 ? '1 month' : `${months} months`}. Open a month to see its dates, or choose a month, a kind of trip or the seats you need above.</p>`;
  }
  if (shown.length === 0) {
    return html`<p class="notice board-summary">No departures match: ${words.join(', ')}. Change a filter above, or <a href="/departures">show every departure</a>.</p>`;
  }
  return html`<p class="board-summary"><strong>${count}</strong>: ${words.join(', ')}. <a href="/departures">Show every departure</a>.</p>`;
}

/**
 * The main content of the board. `live` is the read the filters apply to: every departure, or the
 * chosen trip's.
 */
export function boardMain(catalogue: Catalogue, live: LiveDepartures, options: { query: BoardQuery; now: Date }): SafeHtml {
  const { query, now } = options;
  const { filters } = query;
  const chosen = catalogue.trips.find((p) => p.trip.slug === filters.trip);
  const calendar = chosen ? { href: `${chosen.path}.ics`, name: `${chosen.trip.slug}.ics` } : { href: '/departures.ics', name: 'departures.ics' };
  const shown = boardDepartures(catalogue, live, filters);
  return html`<h1>Departures</h1>
<p class="lead">Upcoming group departures of our treks and expeditions, with the seats left and the price per person. A guide confirms every seat after you enquire.</p>
${filterForm(catalogue, filters, monthChoices(live, filters, now))}
${query.ignored.length > 0 ? html`<p class="notice">${ignoredSentence(query.ignored)}</p>` : ''}
${chosen ? html`<p>About the trip: <a href="${chosen.path}">${chosen.trip.name}</a> (${formatInr(chosen.trip.priceInr)}${chosen.trip.priceInr != null ? ' per person' : ''}).</p>` : ''}
${
  live.state !== 'live' || live.departures.length === 0
    ? departuresBlock(catalogue, live, { page: chosen, now })
    : html`${summary(catalogue, shown, filters)}
<div class="departures-live" data-live-departures="live">
${monthGroups(catalogue, shown, filters)}
<p class="muted departures-read">Seats and prices read live at ${readAt(now)}. A guide confirms every seat after you enquire.</p>
</div>`
}
${live.state === 'live' ? html`<p class="muted">Also as <a href="${`/departures.md${boardSearch(filters)}`}">Markdown</a>, as <a href="/v1/departures">JSON</a> and as a calendar you can subscribe to: <a href="${calendar.href}">${calendar.name}</a>.</p>` : ''}`;
}

/** The departures the board shows for these filters (for its structured data). */
export function boardDepartures(catalogue: Catalogue, live: LiveDepartures, filters: BoardFilters): Departure[] {
  return live.state === 'live' ? applyBoardFilters(live.departures, filters, catalogue) : [];
}
