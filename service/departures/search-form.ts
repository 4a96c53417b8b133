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
import type { SearchName } from './search.ts';

/**
 * The places people search by: the state or territory of each trip's region ("…, Ladakh, India"
 * gives "Ladakh"), offered as suggestions; any text of the region matches.
 */
function regionSuggestions(catalogue: Catalogue): string[] {
  const places = catalogue.trips.flatMap(({ trip }) => {
    const parts = trip.region.split(',').map((part) => part.trim());
    const place = parts.at(-1) === 'India' ? parts.at(-2) : parts.at(-1);
    return place ? [place] : [];
  });
  return [...new Set(places)].sort();
}

/** A filter of the departure search as a form field: what the board's form and the MCP App's view both show. */
export type SearchField =
  | { name: 'from' | 'to'; kind: 'date'; label: string }
  | {
      name: 'type' | 'difficulty' | 'trip';
      kind: 'select';
      label: string;
      /** The first choice, which sets no filter. */
      any: string;
      options: { value: string; label: string }[];
    }
  | {
      name: 'minDays' | 'maxDays' | 'minSeats' | 'maxPriceInr';
      kind: 'number';
      label: string;
      max: number;
      step: number;
      placeholder: string;
    }
  | {
      name: 'region';
      kind: 'text';
      label: string;
      minLength: number;
      maxLength: number;
      placeholder: string;
      suggestions: string[];
    };

/**
 * Every filter of the search (search.ts) as a field, by name: a filter added there is a type
 * error here until it has one. The fields carry the constraints the search accepts (whole
 * numbers from 1, dates), so the browser checks them before anything is sent.
 */
export function searchFields(catalogue: Catalogue): Record<SearchName, SearchField> {
  const number = (
    name: 'minDays' | 'maxDays' | 'minSeats' | 'maxPriceInr',
    label: string,
    max: number,
  ): SearchField => ({
    name,
    kind: 'number',
    label,
    max,
    step: 1,
    placeholder: 'Any',
  });
  return {
    from: { name: 'from', kind: 'date', label: 'Starting from' },
    to: { name: 'to', kind: 'date', label: 'Starting by' },
    type: {
      name: 'type',
      kind: 'select',
      label: 'Kind of trip',
      any: 'Any kind',
      options: tripTypes.map((t) => ({ value: t, label: typeLabel[t] })),
    },
    difficulty: {
      name: 'difficulty',
      kind: 'select',
      label: 'Difficulty',
      any: 'Any difficulty',
      options: difficulties.map((d) => ({ value: d, label: d })),
    },
    minDays: number('minDays', 'Days, at least', 90),
    maxDays: number('maxDays', 'Days, at most', 90),
    minSeats: number('minSeats', 'People', 99),
    maxPriceInr: number('maxPriceInr', 'Budget each, ₹', 999999999),
    region: {
      name: 'region',
      kind: 'text',
      label: 'Region',
      minLength: 2,
      maxLength: 60,
      placeholder: 'Any',
      suggestions: regionSuggestions(catalogue),
    },
    trip: {
      name: 'trip',
      kind: 'select',
      label: 'Trip',
      any: 'All trips',
      options: catalogue.trips.map(({ trip }) => ({ value: trip.slug, label: trip.name })),
    },
  };
}

/** The order the fields are shown in: dates first, then what the trip is, the group and budget, and where. */
export const searchFieldOrder = [
  'from',
  'to',
  'type',
  'difficulty',
  'minDays',
  'maxDays',
  'minSeats',
  'maxPriceInr',
  'region',
  'trip',
] as const satisfies readonly SearchName[];

function option(value: string, label: string, chosen: string | number | undefined): SafeHtml {
  return html`<option value="${value}"${String(chosen ?? '') === value ? html` selected` : ''}>${label}</option>`;
}

function fieldHtml(field: SearchField, value: string | number | undefined): SafeHtml {
  const id = `search-${field.name}`;
  const label = html`<label for="${id}">${field.label}</label>`;
  switch (field.kind) {
    case 'date':
      return html`<div>${label}<input id="${id}" name="${field.name}" type="date"${value ? html` value="${String(value)}"` : ''}></div>`;
    case 'select':
      return html`<div>${label}<select id="${id}" name="${field.name}">${option('', field.any, value)}${field.options.map((o) => option(o.value, o.label, value))}</select></div>`;
    case 'number':
      return html`<div>${label}<input id="${id}" name="${field.name}" type="number" inputmode="numeric" min="1" max="${String(field.max)}" step="${String(field.step)}" placeholder="${field.placeholder}"${value !== undefined ? html` value="${String(value)}"` : ''}></div>`;
    case 'text':
      return html`<div>${label}<input id="${id}" name="${field.name}" type="text" list="search-regions" minlength="${String(field.minLength)}" maxlength="${String(field.maxLength)}" autocomplete="off" placeholder="${field.placeholder}"${value ? html` value="${String(value)}"` : ''}><datalist id="search-regions">${field.suggestions.map((r) => html`<option value="${r}"></option>`)}</datalist></div>`;
  }
}

export interface SearchFormOptions {
  /** The board's form has every filter; the home page's leaves out region and trip. */
  fields: 'board' | 'home';
  /** Shown above the fields (the home page's form is a section of its own). */
  legend?: string;
}

/** The search form, filled in with `filters` (a month, from an older address, as its first and last day). */
export function searchForm(catalogue: Catalogue, filters: BoardFilters, options: SearchFormOptions): SafeHtml {
  const chosen = monthAsDates(filters);
  const fields = searchFields(catalogue);
  const shown = searchFieldOrder.filter((name) => options.fields === 'board' || (name !== 'region' && name !== 'trip'));
  return html`<form method="get" action="/departures" class="finder search-form no-print" aria-label="Find a departure" data-departure-search>
${options.legend ? html`<h2 class="search-legend">${options.legend}</h2>` : ''}
<div class="fields">
${shown.map(
  (name) => html`${fieldHtml(fields[name], chosen[name])}
`,
)}</div>
<button type="submit">Find dates</button>
</form>`;
}
