/**
 * The two ways to ask for an alert, as the board and the trip pages' dates show them: "Tell me
 * when seats open" on every full or filling departure, and "Tell me about new dates that fit"
 * under every board search (an empty one too). Each is a plain form (it works without
 * JavaScript, and from the framed dates of a trip page, whose links open in the whole window)
 * asking for an email address only, folded behind its summary; /alerts.js sends it in place.
 *
 * CSS hooks (src/styles/alerts.css): `.watch` the folded form, `.watch-form` the form,
 * `.watch-status` the line /alerts.js answers in.
 */
import { html, type SafeHtml } from '../../domain/html.ts';
import type { Departure } from '../../domain/schemas/departure.ts';
import { searchEntries } from './search.ts';
import type { BoardFilters } from './board-filters.ts';
import { alertPaths } from './alert-paths.ts';
import { retention } from './alert-paths.ts';

/**
 * The departures a person may want to hear about: full, or with few seats left, unless the
 * board was searched for a group (`people`) that the seats left already take (then the card's
 * own "Enquire for this date" is the way on, and the first result stays on a phone's first screen).
 */
export function offersSeatWatch(d: Pick<Departure, 'status' | 'seatsLeft'>, people?: number): boolean {
  if (d.status === 'sold_out') return true;
  if (d.status !== 'filling') return false;
  return people === undefined || d.seatsLeft == null || d.seatsLeft < people;
}

function emailField(id: string): SafeHtml {
  return html`<label for="${id}">Your email</label>
<span class="watch-row"><input id="${id}" type="email" name="email" required autocomplete="email" inputmode="email" spellcheck="false"><button type="submit" class="button small">Tell me</button></span>`;
}

function note(kept: string): SafeHtml {
  return html`<p class="watch-note muted">One email to confirm first; nothing else until you do. We keep only your address and this alert, ${kept}, or until you stop it (every email has a link). <a href="${alertPaths.about}">What we keep</a></p>
<p class="watch-status" role="status"></p>`;
}

/** "Tell me when seats open" for one departure, for `people` (the board's group size; one by default). */
export function seatWatchForm(d: Pick<Departure, 'id'>, people?: number): SafeHtml {
  const id = `watch-${d.id}`;
  return html`<details class="watch no-print">
<summary>Tell me when seats open</summary>
<form class="watch-form" method="post" action="${alertPaths.watch}" data-watch>
<input type="hidden" name="departure" value="${d.id}">${people && people > 1 ? html`<input type="hidden" name="people" value="${people}">` : ''}
${emailField(`${id}-email`)}
${note('until the date starts')}
</form>
</details>`;
}

/** "Tell me about new dates that fit" for a board search: its filters go with the form. */
export function searchWatchForm(filters: BoardFilters): SafeHtml {
  const fields = [...(filters.month ? ([['month', filters.month]] as const) : []), ...searchEntries(filters)];
  const ends = filters.month !== undefined || filters.to !== undefined;
  return html`<details class="watch watch-search no-print">
<summary>Tell me about new dates that fit</summary>
<form class="watch-form" method="post" action="${alertPaths.watch}" data-watch>
${fields.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
${emailField('watch-search-email')}
${note(ends ? 'until the search’s last day' : `for ${retention.searchDays} days`)}
</form>
</details>`;
}
