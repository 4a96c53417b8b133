/**
 * Live departures as HTML, written by the departures function: the block of one trip's dates
 * (on its page, loaded by a script or framed without one), and the cards of the departures board
 * (board-page.ts). One renderer for both, so the board and the trip pages show a departure the
 * same way: dates, a status badge, seats, price and an "Enquire for this date" action. Cards, not
 * a table, so nothing is cut off on a 320 px screen.
 *
 * CSS hooks (src/styles/departures.css): `.departures-live` wraps a block, `.departure-cards`
 * its list, `.departure` each card; an ancestor with `.departures-compact` shows the first three
 * as short rows of a fixed height, with `.departures-all-dates` (the link to every date) in view.
 */
import { tripBySlug, type Catalogue, type TripPage } from '../../domain/catalogue/index.ts';
import { html, type SafeHtml } from '../../domain/html.ts';
import { dateRange, isBookable, readAt, seatsLine, statusLabel } from './departure-words.ts';
import { formatInr } from '../../domain/format.ts';
import { tripSearchFacts } from '../../domain/catalogue/trip-facts.ts';
import { enquiryHref } from './enquiry-link.ts';
import type { Departure } from '../../domain/schemas/departure.ts';
import { unavailableSentence, type LiveDepartures } from './live.ts';
import { offersSeatWatch, seatWatchForm } from './alert-forms.ts';

/**
 * One departure as a card. `groupSize` is the group a search was made for (the board's
 * "People"): its "Enquire for this date" carries it to the form, and its seat alert watches for it.
 */
export function departureCard(catalogue: Catalogue, d: Departure, withTrip: boolean, groupSize?: number): SafeHtml {
  const page = tripBySlug(catalogue, d.tripSlug);
  const action = !page
    ? ''
    : isBookable(d)
      ? html`<a class="button small" href="${enquiryHref(page, d.id, groupSize)}" data-enquire="${d.id}"><span>Enquire<span class="action-detail"> for this date</span></span></a>`
      : html`<a class="button small secondary" href="${`${page.path}#enquire`}"><span>Ask<span class="action-detail"> about other dates</span></span></a>`;
  return html`<li class="departure" data-departure="${d.id}" data-trip="${d.tripSlug}" data-start="${d.startDate}" data-end="${d.endDate}" data-status="${d.status}"${d.seatsLeft != null ? html` data-seats-left="${d.seatsLeft}"` : ''}>
<p class="departure-dates">${dateRange(d)}</p>
${
  withTrip && page
    ? html`<p class="departure-trip"><a href="${page.path}">${d.tripName}</a></p>
<p class="departure-facts">${tripSearchFacts(page)}</p>`
    : ''
}
<p class="departure-state"><span class="${`badge status-${d.status}`}">${statusLabel[d.status]}</span> <span class="seats">${seatsLine(d)}</span></p>
${d.note ? html`<p class="departure-note muted">${d.note}</p>` : ''}
<div class="departure-foot"><p class="departure-price">${formatInr(d.priceInr)}${d.priceInr != null ? html` <span class="muted">per person</span>` : ''}</p>
${action}</div>
${offersSeatWatch(d, groupSize) ? seatWatchForm(d, groupSize) : ''}
</li>`;
}

function askInstead(catalogue: Catalogue, page: TripPage | undefined): SafeHtml {
  const email = catalogue.site.contactEmail;
  return html`${page ? html`<a href="${`${page.path}#enquire`}">send an enquiry</a>` : 'use the enquiry form on the trip’s page'} or email <a href="${`mailto:${email}`}">${email}</a>`;
}

/**
 * The departures of one trip (`page`) or of every trip, with the time they were read. When
 * storage is off or failing it says so and points at the enquiry path, never at old dates.
 */
export function departuresBlock(
  catalogue: Catalogue,
  live: LiveDepartures,
  options: { page?: TripPage | undefined; now: Date },
): SafeHtml {
  const { page, now } = options;
  if (live.state !== 'live') {
    return html`<div class="notice departures-live" role="status" data-live-departures="${live.state}">
<p><strong>${unavailableSentence(live)}</strong></p>
<p>Ask us about dates instead: ${askInstead(catalogue, page)}.</p>
</div>`;
  }
  if (live.departures.length === 0) {
    return html`<div class="departures-live" data-live-departures="empty">
<p>No departures are on sale right now. Ask us about the next dates or a private group: ${askInstead(catalogue, page)}.</p>
</div>`;
  }
  const caption = page ? `Departures of ${page.trip.name} on sale` : 'Departures on sale';
  const count = live.departures.length;
  return html`<div class="departures-live" data-live-departures="live">
<ul class="departure-cards" aria-label="${caption}">${live.departures.map((d) => departureCard(catalogue, d, !page))}</ul>
${page ? html`<p class="departures-all-dates"><a href="${`/departures?trip=${encodeURIComponent(page.trip.slug)}`}">${count === 1 ? 'This date' : `All ${count} dates`} on the board</a></p>` : ''}
<p class="muted departures-read">Seats and prices read live at ${readAt(now)}.<span class="departures-confirm"> A guide confirms every seat after you enquire.</span></p>
</div>`;
}
