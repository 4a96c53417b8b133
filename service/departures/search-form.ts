/**
 * The departure search as a form: a plain GET form to the board (`/departures`) with one field per
 * filter of search.ts, so it works without JavaScript and every search is an address. The board
 * writes it with the filters chosen; the home page writes it empty (built at deploy time), so
 * the question "which dates fit" is asked in one place. /departure-search.js, where scripts run,
 * leaves the empty fields out of the address, keeps "to" on or after "from" and, on the board,
 * shows the results without leaving the page.
 *
 * The fields carry the constraints the search accepts (whole numbers from 1, dates), so the
 * browser checks them before anything is sent.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { html, type SafeHtml } from '../../domain/html.ts';
import { difficulties, tripTypes } from '../../domain/schemas/vocabulary.ts';
import { monthAsDates, typeLabel, type BoardFilters } from './board-filters.ts';

/**
 * The places people search by: the state or territory of each trip's region ("…, Ladakh, India"
 * gives "Ladakh"), offered as suggestions; any text of the region matches.
 */
export function regionSuggestions(catalogue: Catalogue): string[] {
  const places = catalogue.trips.flatMap(({ trip }) => {
    const parts = trip.region.split(',').map((part) => part.trim());
    const place = parts.at(-1) === 'India' ? parts.at(-2) : parts.at(-1);
    return place ? [place] : [];
  });
  return [...new Set(places)].sort();
}

function option(value: string, label: string, chosen: string | number | undefined): SafeHtml {
  return html`<option value="${value}"${String(chosen ?? '') === value ? html` selected` : ''}>${label}</option>`;
}

function numberField(
  name: string,
  label: string,
  value: number | undefined,
  attrs: { max: number; step?: number; placeholder: string },
): SafeHtml {
  return html`<div><label for="${`search-${name}`}">${label}</label><input id="${`search-${name}`}" name="${name}" type="number" inputmode="numeric" min="1" max="${String(attrs.max)}" step="${String(attrs.step ?? 1)}" placeholder="${attrs.placeholder}"${value !== undefined ? html` value="${String(value)}"` : ''}></div>`;
}

export interface SearchFormOptions {
  /** The board's form has every filter; the home page's leaves out region and trip. */
  fields: 'board' | 'home';
  /** Shown above the fields (the home page's form is a section of its own). */
  legend?: string;
}

/** The search form, filled in with `filters` (a month, from an older address, as its first and last day). */
export function searchForm(catalogue: Catalogue, filters: BoardFilters, options: SearchFormOptions): SafeHtml {
  const { from, to } = monthAsDates(filters);
  const board = options.fields === 'board';
  const dateField = (name: 'from' | 'to', label: string, value: string | undefined) =>
    html`<div><label for="${`search-${name}`}">${label}</label><input id="${`search-${name}`}" name="${name}" type="date"${value ? html` value="${value}"` : ''}></div>`;
  return html`<form method="get" action="/departures" class="finder search-form no-print" aria-label="Find a departure" data-departure-search>
${options.legend ? html`<h2 class="search-legend">${options.legend}</h2>` : ''}
<div class="fields">
${dateField('from', 'Starting from', from)}
${dateField('to', 'Starting by', to)}
<div><label for="search-type">Kind of trip</label><select id="search-type" name="type">${option('', 'Any kind', filters.type)}${tripTypes.map((t) => option(t, typeLabel[t], filters.type))}</select></div>
<div><label for="search-difficulty">Difficulty</label><select id="search-difficulty" name="difficulty">${option('', 'Any difficulty', filters.difficulty)}${difficulties.map((d) => option(d, d, filters.difficulty))}</select></div>
${numberField('minDays', 'Days, at least', filters.minDays, { max: 90, placeholder: 'Any' })}
${numberField('maxDays', 'Days, at most', filters.maxDays, { max: 90, placeholder: 'Any' })}
${numberField('minSeats', 'People', filters.minSeats, { max: 99, placeholder: 'Any' })}
${numberField('maxPriceInr', 'Budget each, ₹', filters.maxPriceInr, { max: 999999999, step: 1, placeholder: 'Any' })}
${
  board
    ? html`<div><label for="search-region">Region</label><input id="search-region" name="region" type="text" list="search-regions" minlength="2" maxlength="60" autocomplete="off" placeholder="Any"${filters.region ? html` value="${filters.region}"` : ''}><datalist id="search-regions">${regionSuggestions(catalogue).map((r) => html`<option value="${r}"></option>`)}</datalist></div>
<div><label for="search-trip">Trip</label><select id="search-trip" name="trip">${option('', 'All trips', filters.trip)}${catalogue.trips.map(({ trip }) => option(trip.slug, trip.name, filters.trip))}</select></div>`
    : ''
}
</div>
<button type="submit">Find dates</button>
</form>`;
}
