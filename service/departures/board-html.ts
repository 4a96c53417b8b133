/**
 * Live departures as HTML, written by the departures function: the block a trip page loads
 * (one trip's dates), and the departures board (every trip, or one chosen in its form). One
 * renderer for both, so the board and the trip pages show a departure the same way: dates,
 * a status badge, seats, price and an "Enquire for this date" action. Cards, not a table, so
 * nothing is cut off on a 320 px screen.
 */
import type { Catalogue, TripPage } from '../../domain/catalogue/index.ts';
import { html, type SafeHtml } from '../../domain/html.ts';
import { dateRange, readAt, seatsText, statusLabel } from '../markdown/departures.ts';
import { formatInr } from '../../domain/format.ts';
import type { Departure } from '../../domain/schemas/departure.ts';
import { unavailableSentence, type LiveDepartures } from './live.ts';

/** Departures a person can still ask to join. */
export function isBookable(d: Pick<Departure, 'status'>): boolean {
  return d.status === 'open' || d.status === 'filling';
}

/** Where "Enquire for this date" leads: the trip page's form, with the date chosen. */
export function enquiryHref(page: Pick<TripPage, 'path'>, departureId: string): string {
  return `${page.path}?departure=${encodeURIComponent(departureId)}#enquire`;
}

function seatsLine(d: Departure): string {
  const seats = seatsText(d);
  if (d.status === 'cancelled') return 'Cancelled';
  if (seats === 'Ask us') return 'Seats: ask us';
  return d.seatsLeft === 0 ? 'No seats left' : `${seats} seats left`;
}

function card(catalogue: Catalogue, d: Departure, withTrip: boolean): SafeHtml {
  const page = catalogue.trips.find((t) => t.trip.slug === d.tripSlug);
  const action = !page
    ? ''
    : isBookable(d)
      ? html`<a class="button small" href="${enquiryHref(page, d.id)}" data-enquire="${d.id}">Enquire for this date</a>`
      : html`<a class="button small secondary" href="${`${page.path}#enquire`}">Ask about other dates</a>`;
  return html`<li class="departure" data-departure="${d.id}" data-trip="${d.tripSlug}" data-start="${d.startDate}" data-end="${d.endDate}" data-status="${d.status}">
<p class="departure-dates">${dateRange(d)}</p>
${withTrip && page ? html`<p class="departure-trip"><a href="${page.path}">${d.tripName}</a></p>` : ''}
<p class="departure-state"><span class="${`badge status-${d.status}`}">${statusLabel[d.status]}</span> <span class="seats">${seatsLine(d)}</span></p>
${d.note ? html`<p class="departure-note muted">${d.note}</p>` : ''}
<div class="departure-foot"><p class="departure-price">${formatInr(d.priceInr)}${d.priceInr != null ? html` <span class="muted">per person</span>` : ''}</p>
${action}</div>
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
export function departuresBlock(catalogue: Catalogue, live: LiveDepartures, options: { page?: TripPage | undefined; now: Date }): SafeHtml {
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
  return html`<div class="departures-live" data-live-departures="live">
<ul class="departure-cards" aria-label="${caption}">${live.departures.map((d) => card(catalogue, d, !page))}</ul>
<p class="muted departures-read">Seats and prices read live at ${readAt(now)}. A guide confirms every seat after you enquire.</p>
</div>`;
}

/** The main content of the departures board (`/departures`, `/departures?trip=<slug>`). */
export function boardMain(catalogue: Catalogue, live: LiveDepartures, options: { chosen?: TripPage | undefined; now: Date; unknownTrip?: string | undefined }): SafeHtml {
  const { chosen, now } = options;
  const calendar = chosen ? { href: `${chosen.path}.ics`, name: `${chosen.trip.slug}.ics` } : { href: '/departures.ics', name: 'departures.ics' };
  return html`<h1>Departures</h1>
<p class="lead">Upcoming group departures of our treks and expeditions, with the seats left and the price per person. A guide confirms every seat after you enquire.</p>
<form method="get" action="/departures" class="finder no-print">
<label for="trip-filter">Trip</label>
<select id="trip-filter" name="trip">
<option value="">All trips</option>
${catalogue.trips.map(({ trip }) => html`<option value="${trip.slug}"${chosen?.trip.slug === trip.slug ? html` selected` : ''}>${trip.name}</option>`)}
</select>
<button type="submit">Show</button>
</form>
${options.unknownTrip ? html`<p class="notice">There is no trip called “${options.unknownTrip.slice(0, 80)}”, so every trip is shown.</p>` : ''}
${chosen ? html`<p>Showing <a href="${chosen.path}">${chosen.trip.name}</a> (${formatInr(chosen.trip.priceInr)}${chosen.trip.priceInr != null ? ' per person' : ''}). <a href="/departures">Show all trips</a>.</p>` : ''}
${departuresBlock(catalogue, live, { page: chosen, now })}
${live.state === 'live' ? html`<p class="muted">Also as <a href="/departures.md">Markdown</a>, as <a href="/v1/departures">JSON</a> and as a calendar you can subscribe to: <a href="${calendar.href}">${calendar.name}</a>.</p>` : ''}`;
}
