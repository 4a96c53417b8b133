/**
 * Live departures as Markdown: `departures.md` (the contract's fallback for the JSON API, and the
 * board's twin, with the same filters) and the departures section of every trip's Markdown twin. When storage is off or failing the
 * text says so and points at the enquiry path; it never lists stale or invented dates.
 */
import { tripBySlug, type Catalogue, type TripPage } from '../../domain/catalogue/index.ts';
import { enquiryHref } from '../departures/enquiry-link.ts';
import { unavailableSentence, type LiveDepartures } from '../departures/live.ts';
import type { Departure } from '../../domain/schemas/departure.ts';
import { formatInr, formatMonth } from '../../domain/format.ts';
import {
  applyBoardFilters,
  boardSearch,
  byMonth,
  filtersInWords,
  ignoredSentence,
  monthFacts,
  monthsAhead,
  seatThresholds,
  type BoardQuery,
} from '../departures/board-filters.ts';
import { tripSearchFacts } from '../../domain/catalogue/trip-facts.ts';
import { relaxations } from '../departures/relaxation.ts';
import { searchNames, searchParameters } from '../departures/search.ts';
import { dateRange, isBookable, readAt, seatsText, statusLabel } from '../departures/departure-words.ts';
import { markdownText } from './text.ts';
import { feedLinks } from '../departures/alert-paths.ts';
import type { BoardFilters } from '../departures/board-filters.ts';

/** Where this search's changes are followed: its feeds, and alerts by email. */
function feedLine(catalogue: Catalogue, filters: BoardFilters): string {
  const links = feedLinks(filters);
  return `The changes of this search (new dates, seats opened, lower prices, status changes, cancellations) as a feed: ${catalogue.siteUrl}${links.atom} (Atom) or ${catalogue.siteUrl}${links.json} (JSON Feed). By email, with no account: ${catalogue.siteUrl}/alerts`;
}

/** Text safe inside a Markdown table cell. */
export function tableCell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\s*[\r\n]+\s*/g, ' ');
}

/**
 * A table of departures. With `catalogue` (the departures of every trip: departures.md and the
 * board's twin) each row names its trip with what it is chosen by, and links "Enquire" to the
 * trip's form with that date filled in.
 */
export function departuresTable(
  departures: readonly Departure[],
  options: { withTrip: boolean; catalogue?: Catalogue; groupSize?: number | undefined },
): string[] {
  const { catalogue } = options;
  const head = options.withTrip
    ? ['Dates', 'Trip', 'Status', 'Seats left', 'Price per person']
    : ['Dates', 'Status', 'Seats left', 'Price per person'];
  if (catalogue) head.push('Enquire');
  const rows = departures.map((d) => {
    const dates = tableCell(dateRange(d) + (d.note ? ` (${d.note})` : ''));
    const page = catalogue && tripBySlug(catalogue, d.tripSlug);
    const trip = `[${tableCell(d.tripName)}](${d.tripUrl})${page ? ` (${tableCell(tripSearchFacts(page))})` : ''}`;
    const cells = [
      dates,
      ...(options.withTrip ? [trip] : []),
      statusLabel[d.status],
      seatsText(d),
      formatInr(d.priceInr),
    ];
    if (catalogue)
      cells.push(
        page && isBookable(d)
          ? `[Enquire for this date](${catalogue.siteUrl}${enquiryHref(page, d.id, options.groupSize)})`
          : '—',
      );
    return `| ${cells.join(' | ')} |`;
  });
  return [
    `| ${head.join(' | ')} |`,
    `| ${head.map((h) => (h === 'Seats left' || h.startsWith('Price') ? '---:' : '---')).join(' | ')} |`,
    ...rows,
  ];
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

/**
 * How an agent asks the question: every filter of the search, as search.ts declares it (the
 * same names and forms as /v1/departures), then the board's two older ones, with an example.
 */
function filterLines(catalogue: Catalogue, example: string): string[] {
  return [
    `Add filters to ${catalogue.siteUrl}/departures.md (or to ${catalogue.siteUrl}/departures with \`Accept: text/markdown\`, or to ${catalogue.siteUrl}/departures.ics for a calendar), in any combination; they combine with AND and are the same as those of ${catalogue.siteUrl}/v1/departures and the MCP tool \`list_departures\`:`,
    '',
    ...searchNames.map(
      (name) => `- \`${name}\`: ${searchParameters[name].description} Accepts ${searchParameters[name].accepted}.`,
    ),
    `- \`month=YYYY-MM\`: departures starting that month (this month and the next ${monthsAhead - 1}); here only, /v1 takes \`from\` and \`to\`.`,
    `- \`seats=N\`, N one of ${seatThresholds.join(', ')}: the older spelling of \`minSeats\`.`,
    '',
    `A value outside these is left out and the answer says so (/v1 answers 400 \`invalid_parameter\` instead, and the calendar 400 with the reason). When nothing matches, the answer names the single changes of one filter that would find dates. Example: ${catalogue.siteUrl}/departures.md${example}`,
  ];
}

/** A search that finds nothing: the single changes that would find dates, each with its address. */
function noMatchLines(catalogue: Catalogue, departures: readonly Departure[], query: BoardQuery): string[] {
  const changes = relaxations(departures, query.filters, catalogue);
  if (changes.length === 0) return ['No departures match these filters, and no change of one filter finds any.', ''];
  return [
    'No departures match these filters. Change one filter:',
    '',
    ...changes.map((c) => `- [${c.words}](${catalogue.siteUrl}/departures.md${c.search})`),
    '',
  ];
}

/**
 * `departures.md` and the board's Markdown twin: the departures that match the board's filters,
 * grouped by the month they start in.
 */
export function departuresMarkdown(
  catalogue: Catalogue,
  live: LiveDepartures,
  options: { query?: BoardQuery; now?: Date } = {},
): string {
  const now = options.now ?? new Date();
  const query = options.query ?? { filters: {}, ignored: [] };
  // The region is the address's own text: written as plain text, never as Markdown.
  const words = filtersInWords(query.filters, catalogue, markdownText);
  const lines = [
    words.length > 0 ? `# Departures: ${words.join(', ')}` : '# Departures: live availability',
    '',
    `> Upcoming departures of ${catalogue.site.operatorName}'s treks and expeditions in the Indian Himalaya, read live from operational storage. Prices are per person in Indian rupees (INR). A guide confirms every seat after an enquiry.`,
    '',
  ];
  if (query.ignored.length > 0) lines.push(`**${ignoredSentence(query.ignored)}**`, '');
  if (live.state === 'live') {
    lines.push(
      `Read live at ${readAt(now)}. The same data as JSON: ${catalogue.siteUrl}/v1/departures. As a calendar: ${catalogue.siteUrl}/departures.ics`,
      '',
      feedLine(catalogue, query.filters),
      '',
    );
    const shown = applyBoardFilters(live.departures, query.filters, catalogue);
    if (words.length > 0)
      lines.push(
        `Filtered to: ${words.join(', ')}; ${shown.length === 1 ? '1 departure' : `${shown.length} departures`}, earliest first. Every departure: ${catalogue.siteUrl}/departures.md`,
        '',
      );
    if (live.departures.length === 0)
      lines.push('No departures are on sale right now. Ask us about the next dates or a private group.', '');
    else if (shown.length === 0) lines.push(...noMatchLines(catalogue, live.departures, query));
    for (const group of byMonth(shown)) {
      lines.push(
        `## ${formatMonth(group.month)}`,
        '',
        `${monthFacts(group.departures)}.`,
        '',
        ...departuresTable(group.departures, {
          withTrip: query.filters.trip === undefined,
          catalogue,
          groupSize: query.filters.minSeats,
        }),
        '',
      );
    }
  } else {
    lines.push(`**${unavailableSentence(live)}** Ask us about dates instead:`, '');
  }
  const first = live.state === 'live' ? live.departures[0] : undefined;
  const example = boardSearch({ type: 'trek', minSeats: 2, ...(first ? { from: first.startDate } : {}) });
  lines.push('## Filters', '', ...filterLines(catalogue, example), '');
  lines.push('## How to book', '', ...enquiryLines(catalogue), '', '## Trips', '');
  for (const { trip } of catalogue.trips)
    lines.push(
      `- [${trip.name}](${trip.url}) (Markdown: ${trip.markdownUrl}): ${trip.season}, ${formatInr(trip.priceInr)}`,
    );
  lines.push('');
  return lines.join('\n');
}
