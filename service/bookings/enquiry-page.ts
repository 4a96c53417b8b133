/**
 * `/<section>/<slug>/enquire?departure=<id>`: a trip's enquiry form on a page of its own, with
 * the chosen departure's dates already in it. It is where "Enquire for this date" leads (on the
 * board, and in a trip page's departures when JavaScript is off), so the date a trekker chose
 * reaches the form without a script; with JavaScript a trip page chooses it in its own form
 * instead. Written live by the departures function from the same form HTML as the trip page.
 *
 * A departure that is no longer open, or not this trip's, is said plainly; the form is shown
 * anyway with the trip's other open dates as links, so the page never ends in a dead end.
 */
import type { TripPage } from '../../domain/catalogue/index.ts';
import { formatInr } from '../../domain/format.ts';
import { html, type SafeHtml } from '../../domain/html.ts';
import type { Departure } from '../../domain/schemas/departure.ts';
import { enquiryHref } from '../departures/enquiry-link.ts';
import { isBookable } from '../departures/board-filters.ts';
import { unavailableSentence, type LiveDepartures } from '../departures/live.ts';
import { dateRange, readAt, seatsText, statusLabel } from '../departures/departure-words.ts';
import { enquiryFormHtml } from './form-html.ts';
import { seatsLeftOn } from './seats.ts';

function enquiryPagePath(page: Pick<TripPage, 'path'>): string {
  return `${page.path}/enquire`;
}

export interface EnquiryPage {
  status: number;
  title: string;
  description: string;
  main: SafeHtml;
}

function chosenFacts(d: Departure, now: Date): SafeHtml {
  return html`<dl class="enquiry-receipt chosen-departure">
<dt>Dates</dt><dd><strong>${dateRange(d)}</strong></dd>
<dt>Status</dt><dd><span class="${`badge status-${d.status}`}">${statusLabel[d.status]}</span> ${seatsText(d) === 'Ask us' ? 'Seats: ask us' : `${seatsText(d)} seats left`}</dd>
<dt>Price</dt><dd>${formatInr(d.priceInr)}${d.priceInr != null ? ' per person' : ''}</dd>
${d.note ? html`<dt>Note</dt><dd>${d.note}</dd>` : ''}
</dl>
<p class="muted departures-read">Read live at ${readAt(now)}.</p>`;
}

function otherDates(
  page: TripPage,
  open: readonly Departure[],
  except: string | undefined,
  groupSize: number | undefined,
): SafeHtml {
  const others = open.filter((d) => d.id !== except).slice(0, 8);
  if (others.length === 0) return html``;
  return html`<p>${except ? 'Other open dates' : 'Open dates'} of ${page.trip.name}:</p>
<ul class="other-dates">${others.map((d) => html`<li><a href="${enquiryHref(page, d.id, groupSize)}">${dateRange(d)}</a> <span class="muted">(${statusLabel[d.status]}, ${seatsText(d) === 'Ask us' ? 'seats: ask us' : `${seatsText(d)} seats left`})</span></li>`)}</ul>`;
}

/** Why the departure named in the address is not filled in, or nothing when it is. */
function notChosenSentence(page: TripPage, wanted: string | undefined, found: Departure | undefined): string {
  if (!wanted) return '';
  if (!found)
    return `That departure of ${page.trip.name} is no longer on sale. Choose another date below, or tell us the dates you have in mind.`;
  return `The departure of ${dateRange(found)} is ${statusLabel[found.status].toLowerCase()}, so it is not open for enquiries. Choose another date below, or ask us about a waiting list.`;
}

export function enquiryPage(
  page: TripPage,
  live: LiveDepartures,
  options: {
    departureId?: string | undefined;
    /** The group a search was made for (the board's "People"), already held to the trip's cap. */
    groupSize?: number | undefined;
    now: Date;
  },
): EnquiryPage {
  const { departureId: wanted, groupSize, now } = options;
  const departures = live.state === 'live' ? live.departures.filter((d) => d.tripSlug === page.trip.slug) : [];
  const found = wanted ? departures.find((d) => d.id === wanted) : undefined;
  const chosen = found && isBookable(found) ? found : undefined;
  const open = departures.filter(isBookable);
  const title = chosen ? `Enquire: ${page.trip.name}, ${dateRange(chosen)}` : `Enquire: ${page.trip.name}`;
  // The group's bound is the seats left on the chosen date, as the endpoint counts them.
  const left = chosen ? seatsLeftOn(dateRange(chosen), departures) : null;
  const form = enquiryFormHtml({
    trip: page.trip,
    headingLevel: 2,
    heading: 'Your details',
    values: {
      ...(chosen ? { preferredDeparture: dateRange(chosen) } : {}),
      ...(groupSize !== undefined ? { groupSize: String(groupSize) } : {}),
    },
    seats: left ? { dates: left.dates, left: left.seats } : undefined,
  });
  const notChosen = live.state === 'live' && !chosen ? notChosenSentence(page, wanted, found) : '';
  const main = html`<nav class="breadcrumbs" aria-label="Breadcrumb"><ol><li><a href="/">Home</a></li><li><a href="${page.path}">${page.trip.name}</a></li><li><a href="${chosen ? enquiryHref(page, chosen.id, groupSize) : enquiryPagePath(page)}" aria-current="page">Enquire</a></li></ol></nav>
<h1>${chosen ? html`Enquire about ${page.trip.name}, ${dateRange(chosen)}` : html`Enquire about ${page.trip.name}`}</h1>
<p class="lead">${chosen ? 'The dates you chose are in the form below.' : 'Tell us the dates you have in mind.'} A guide calls you back to confirm seats and dates; nothing is booked until then.</p>
${chosen ? chosenFacts(chosen, now) : ''}
${notChosen ? html`<p class="notice">${notChosen}</p>` : ''}
${live.state !== 'live' ? html`<p class="notice">${unavailableSentence(live)} Tell us the dates you have in mind in the form.</p>` : ''}
${chosen ? '' : otherDates(page, open, found?.id, groupSize)}
${form}
<p><a href="${page.path}">About ${page.trip.name}: itinerary, fitness, price</a> · <a href="${`/departures?trip=${encodeURIComponent(page.trip.slug)}`}">Every date of this trip</a></p>
<script src="/enquiry.js" defer></script>`;
  return {
    status: wanted && !found && live.state === 'live' ? 404 : 200,
    title,
    description: `Send an enquiry about ${page.trip.name}${chosen ? ` for ${dateRange(chosen)}` : ''}; a guide calls you back to confirm seats.`,
    main,
  };
}
