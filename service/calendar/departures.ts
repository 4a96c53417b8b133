/**
 * iCalendar (RFC 5545) feeds of published departures, all trips (`/departures.ics`) or one
 * (`/treks/<slug>.ics`, `/expeditions/<slug>.ics`), for calendar apps to subscribe to.
 * ical-generator writes the format (CRLF lines folded at 75 octets, escaped text); this
 * module decides what a departure looks like as an event.
 *
 * A departure is an all-day event: DTSTART is its first day and DTEND the day after its last
 * (DTEND is exclusive). Its UID is built from the departure id, so an app updates the same
 * event when seats or status change. When storage cannot be read the feed answers 503 rather
 * than an empty calendar, which would make subscribed apps delete every event.
 *
 * Every line ends with CRLF, the last one too (RFC 5545 3.1 and the `icalobject` rule of 3.4,
 * which ical-generator leaves off after END:VCALENDAR). A calendar holds at least one component
 * (3.6): the time zone the departures run in, India's, as its VTIMEZONE (from
 * timezones-ical-library), so a search that finds no departure is still a valid calendar,
 * without an event that is not a departure.
 */
import ical, { ICalEventStatus, ICalEventTransparency } from 'ical-generator';
import { tzlib_get_ical_block } from 'timezones-ical-library';
import type { Catalogue, TripPage } from '../../domain/catalogue/index.ts';
import { addDays } from '../departures/validation.ts';
import { unavailableSentence, type LiveDepartures } from '../departures/live.ts';
import { cachePolicy } from '../http/cache-policy.ts';
import { dateRange, seatsText, statusLabel } from '../departures/departure-words.ts';
import type { Departure } from '../../domain/schemas/departure.ts';
import { formatInr } from '../../domain/format.ts';

/** Calendar apps poll subscriptions; asking for hourly keeps seats roughly current without load. */
const refreshSeconds = 3600;

/** Where the departures run: "today" is India's (departures/today.ts). */
const departuresZone = 'Asia/Kolkata';

/** India's VTIMEZONE, the calendar's first component: CRLF lines, none after the last. */
const zoneComponent = (() => {
  const answer = tzlib_get_ical_block(departuresZone);
  const block = Array.isArray(answer) ? answer[0] : undefined;
  if (!block?.startsWith('BEGIN:VTIMEZONE')) throw new Error(`no VTIMEZONE for ${departuresZone}`);
  return block.replace(/\r?\n/g, '\r\n').trimEnd();
})();

/**
 * ical-generator's text with India's VTIMEZONE as its first component (after the calendar's
 * properties, which RFC 5545 puts before every component) and the CRLF after END:VCALENDAR.
 */
function withZoneAndLastLine(text: string): string {
  const firstComponent = text.search(/^(BEGIN:VEVENT|END:VCALENDAR)\r?$/m);
  const done = `${text.slice(0, firstComponent)}${zoneComponent}\r\n${text.slice(firstComponent)}`;
  return done.endsWith('\r\n') ? done : `${done}\r\n`;
}

function utcDay(iso: string): Date {
  return new Date(`${iso}T00:00:00Z`);
}

export function departureUid(catalogue: Catalogue, departureId: string): string {
  return `departure-${departureId}@${new URL(catalogue.site.siteUrl).hostname}`;
}

function description(d: Departure, enquiryUrl: string): string {
  return [
    `${d.tripName}: ${dateRange(d)}.`,
    `Status: ${statusLabel[d.status]}. Seats left: ${seatsText(d)}. ${d.priceInr == null ? 'Price on request' : `Price per person: ${formatInr(d.priceInr)}`}.`,
    ...(d.note ? [d.note] : []),
    `Enquire: ${enquiryUrl}`,
  ].join('\n');
}

export function departuresCalendar(
  catalogue: Catalogue,
  departures: readonly Departure[],
  scope: { page?: TripPage },
  now = new Date(),
): string {
  const { site } = catalogue;
  const name = scope.page ? `${scope.page.trip.name}: departures` : `${site.operatorName}: departures`;
  const calendar = ical({
    name,
    description: `Upcoming departures, read live from ${site.operatorName}'s operational storage.`,
    prodId: { company: site.operatorName, product: 'Departures', language: 'EN' },
    url: scope.page ? scope.page.trip.url : `${catalogue.siteUrl}/departures`,
    ttl: refreshSeconds,
  });
  for (const d of departures) {
    calendar.createEvent({
      id: departureUid(catalogue, d.id),
      allDay: true,
      start: utcDay(d.startDate),
      end: utcDay(addDays(d.endDate, 1)),
      stamp: now,
      summary: d.status === 'cancelled' ? `Cancelled: ${d.tripName}` : `${d.tripName} (${statusLabel[d.status]})`,
      description: description(d, `${d.tripUrl}#enquire`),
      url: d.tripUrl,
      transparency: ICalEventTransparency.TRANSPARENT,
      ...(d.status === 'cancelled' ? { status: ICalEventStatus.CANCELLED } : {}),
    });
  }
  return withZoneAndLastLine(calendar.toString());
}

/** The HTTP answer for a feed: the calendar, or a plain 503 that points at the enquiry path. */
export function calendarResponse(
  catalogue: Catalogue,
  live: LiveDepartures,
  scope: { page?: TripPage; fileName: string },
): Response {
  if (live.state !== 'live') {
    const where = scope.page
      ? `the enquiry form on ${scope.page.trip.url}#enquire`
      : `the enquiry form on any trip page (${catalogue.siteUrl}/departures lists them)`;
    return new Response(
      `${unavailableSentence(live)}\nAsk about dates through ${where} or email ${catalogue.site.contactEmail}.\n`,
      {
        status: 503,
        headers: {
          'Content-Type': 'text/plain; charset=utf-8',
          'Cache-Control': cachePolicy.never,
          'Retry-After': '300',
        },
      },
    );
  }
  return new Response(departuresCalendar(catalogue, live.departures, scope.page ? { page: scope.page } : {}), {
    status: 200,
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': `inline; filename="${scope.fileName}"`,
      'Cache-Control': cachePolicy.departures,
    },
  });
}
