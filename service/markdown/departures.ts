/**
 * Live departures as Markdown: `departures.md` (the contract's fallback for the JSON API) and
 * the departures section of every trip's Markdown twin. When storage is off or failing the
 * text says so and points at the enquiry path; it never lists stale or invented dates.
 */
import type { Catalogue, TripPage } from '../../domain/catalogue/index.ts';
import { unavailableSentence, type LiveDepartures } from '../departures/live.ts';
import type { Departure } from '../../domain/schemas/departure.ts';
import { formatDate, formatInr } from '../../domain/format.ts';

export const statusLabel: Record<Departure['status'], string> = {
  open: 'Open',
  filling: 'Filling fast',
  sold_out: 'Sold out',
  cancelled: 'Cancelled',
};

/** Text safe inside a Markdown table cell. */
export function tableCell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\s*[\r\n]+\s*/g, ' ');
}

export function dateRange(d: Pick<Departure, 'startDate' | 'endDate'>): string {
  return d.startDate === d.endDate ? formatDate(d.startDate) : `${formatDate(d.startDate)} to ${formatDate(d.endDate)}`;
}

export function seatsText(d: Pick<Departure, 'seatsLeft' | 'seatsTotal' | 'status'>): string {
  if (d.status === 'cancelled') return 'None';
  if (d.seatsLeft == null) return 'Ask us';
  return d.seatsTotal == null ? String(d.seatsLeft) : `${d.seatsLeft} of ${d.seatsTotal}`;
}

/** The time of a live read, as readers in India see it. */
export function readAt(now: Date): string {
  const text = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Kolkata' }).format(now);
  return `${text} IST`;
}

export function departuresTable(departures: readonly Departure[], options: { withTrip: boolean }): string[] {
  const head = options.withTrip ? ['Dates', 'Trip', 'Status', 'Seats left', 'Price per person'] : ['Dates', 'Status', 'Seats left', 'Price per person'];
  const rows = departures.map((d) => {
    const dates = tableCell(dateRange(d) + (d.note ? ` (${d.note})` : ''));
    const cells = [dates, ...(options.withTrip ? [`[${tableCell(d.tripName)}](${d.tripUrl})`] : []), statusLabel[d.status], seatsText(d), formatInr(d.priceInr)];
    return `| ${cells.join(' | ')} |`;
  });
  return [`| ${head.join(' | ')} |`, `| ${head.map((h) => (h === 'Seats left' || h.startsWith('Price') ? '---:' : '---')).join(' | ')} |`, ...rows];
}

/** How to ask about dates when none can be shown, or to book a seat. */
export function enquiryLines(catalogue: Catalogue, page?: TripPage): string[] {
  const email = catalogue.site.contactEmail;
  if (page) {
    return [
      `- Use the enquiry form on the trip page: ${page.trip.url}#enquire`,
      `- Or email ${email} with the trip name, your dates and your group size.`,
      `- Agents: POST JSON to ${catalogue.siteUrl}/api/bookings with \`tripSlug\` "${page.trip.slug}", \`name\`, \`phone\`, \`groupSize\`, and optionally \`email\`, \`preferredDeparture\` (a departure \`id\` from /v1/departures, or the dates as text) and \`message\`. A guide confirms seats; nothing is booked automatically.`,
    ];
  }
  return [
    `- Open the trip's page and use its enquiry form (each trip page has one, at \`#enquire\`). Trips: ${catalogue.siteUrl}/v1/trips or the list below.`,
    `- Or email ${email} with the trip name, your dates and your group size.`,
  ];
}

export function departuresMarkdown(catalogue: Catalogue, live: LiveDepartures, now = new Date()): string {
  const lines = [
    '# Departures: live availability',
    '',
    `> Upcoming departures of ${catalogue.site.operatorName}'s treks and expeditions in the Indian Himalaya, read live from operational storage. Prices are per person in Indian rupees (INR). A guide confirms every seat after an enquiry.`,
    '',
  ];
  if (live.state === 'live') {
    lines.push(`Read live at ${readAt(now)}. The same data as JSON: ${catalogue.siteUrl}/v1/departures. As a calendar: ${catalogue.siteUrl}/departures.ics`, '');
    if (live.departures.length === 0) lines.push('No departures are on sale right now. Ask us about the next dates or a private group.', '');
    else lines.push(...departuresTable(live.departures, { withTrip: true }), '');
  } else {
    lines.push(`**${unavailableSentence(live)}** Ask us about dates instead:`, '');
  }
  lines.push('## How to book', '', ...enquiryLines(catalogue), '', '## Trips', '');
  for (const { trip } of catalogue.trips) lines.push(`- [${trip.name}](${trip.url}) (Markdown: ${trip.markdownUrl}): ${trip.season}, ${formatInr(trip.priceInr)}`);
  lines.push('');
  return lines.join('\n');
}
