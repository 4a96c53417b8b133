/**
 * A trip as clean Markdown: the twin of its page at `<page path>.md`. Everything the page
 * says, in reading order: facts, overview, who it suits, the difficulty band, how to reach the
 * start, itinerary, fitness, inclusions, exclusions, gear, live departures, price, how to
 * enquire, FAQs and references.
 */
import { tripBySlug, type Catalogue, type TripPage } from '../../domain/catalogue/index.ts';
import { beginnerAnswer, difficultyMeaning } from '../../domain/catalogue/difficulty.ts';
import { gettingThereLines, gettingThereReferenceNumbers } from '../../domain/catalogue/getting-there.ts';
import { contestedLines, tripContested } from '../../domain/catalogue/contested.ts';
import { hostOf, publisherOf } from '../../domain/catalogue/references.ts';
import { wholePrice } from '../../domain/catalogue/price.ts';
import type { ItineraryDay } from '../../domain/schemas/itinerary.ts';
import { unavailableSentence, type LiveDepartures } from '../departures/live.ts';
import { formatDate, formatDays, formatHours, formatInr, formatKm, formatMetres } from '../../domain/format.ts';
import { departuresTable, enquiryLines, tableCell } from './departures.ts';
import { readAt } from '../departures/departure-words.ts';
import { quoted } from '../http/quoted.ts';

/** The whole price, as the page gives it beside the price: GST, deposit, cancellation. */
function priceTerms(catalogue: Catalogue, page: TripPage): string[] {
  const price = wholePrice(catalogue.site, page.trip, page.content);
  const terms = [
    price.gst
      ? `- With ${price.gst.percent}% GST: ${price.gst.totalInr != null ? `${formatInr(price.gst.totalInr)} per person` : `${price.gst.percent}% GST is added to the price we quote`}.`
      : null,
    price.depositPercent != null
      ? `- Deposit: ${price.depositPercent}% confirms your seat, once a guide has called you.`
      : null,
    price.cancellation
      ? `- Cancellation: ${price.cancellation.summary}${price.cancellation.faqId ? ' The full terms are under "Questions people ask".' : ''}`
      : null,
  ].filter((line): line is string => line !== null);
  return terms.length > 0 ? ['', ...terms] : [];
}

function facts(catalogue: Catalogue, page: TripPage): string[] {
  const { trip, content } = page;
  const peak = content.peak ? catalogue.peaks.find((p) => p.id === content.peak) : undefined;
  const rows: [string, string | undefined][] = [
    [
      'Type',
      trip.type === 'trek' ? 'Trek' : `Expedition${trip.alpineGrade ? `, Alpine grade ${trip.alpineGrade}` : ''}`,
    ],
    [
      'Peak',
      peak
        ? `${peak.name}, ${formatMetres(peak.altitudeM)} (dataset record: ${catalogue.siteUrl}/v1/peaks/${peak.id})`
        : undefined,
    ],
    ['Region', trip.region],
    ['Difficulty', trip.difficulty],
    [
      'Highest point',
      trip.altitudeLabel ?? (trip.summitAltitudeM != null ? formatMetres(trip.summitAltitudeM) : undefined),
    ],
    ['Duration', trip.durationLabel ?? (trip.durationDays != null ? formatDays(trip.durationDays) : undefined)],
    ['Distance', content.distanceKm != null ? formatKm(content.distanceKm) : undefined],
    ['Season', trip.season],
    ['Best window', trip.seasonWindow],
    ['Group size', trip.groupSize],
    ['Start and end', trip.startEnd],
    ['Base', content.base],
    ['Price', `${formatInr(trip.priceInr)}${trip.priceInr != null ? ' per person' : ''}`],
    ['Last checked', trip.lastUpdated ? formatDate(trip.lastUpdated) : undefined],
  ];
  const lines = rows
    .filter((row): row is [string, string] => row[1] !== undefined)
    .map(([name, value]) => `- **${name}:** ${value}`);
  const own = contestedLines({ contested: tripContested(content) }).map(
    (line) => `- **${line.replace(/^([^:]+): /, '$1:** ')}`,
  );
  return peak
    ? [
        ...lines,
        ...own,
        ...contestedLines(peak).map(
          (line) => `- **${peak.name}, ${line.replace(/^([^:]+): /, (_, fact: string) => `${fact.toLowerCase()}:** `)}`,
        ),
      ]
    : [...lines, ...own];
}

/** A day's stage: its title, with the places added only when the title does not already name them. */
export function stageName(d: Pick<ItineraryDay, 'title' | 'from' | 'to'>): string {
  const named = (place: string) => d.title.toLowerCase().includes(place.toLowerCase());
  if (d.from === d.to || (named(d.from) && named(d.to))) return d.title;
  return `${d.title} (${d.from} to ${d.to})`;
}

function itinerary(page: TripPage): string[] {
  const days = page.content.itinerary;
  const lines = ['| Day | Stage | Altitude | Distance | Walking |', '| ---: | --- | --- | ---: | ---: |'];
  for (const d of days) {
    const altitude =
      d.startAltitudeM === d.endAltitudeM
        ? formatMetres(d.endAltitudeM)
        : `${formatMetres(d.startAltitudeM)} to ${formatMetres(d.endAltitudeM)}`;
    lines.push(
      `| ${d.day} | ${tableCell(stageName(d))} | ${altitude} | ${d.distanceKm != null ? formatKm(d.distanceKm) : '–'} | ${d.walkingHours != null ? formatHours(d.walkingHours) : '–'} |`,
    );
  }
  lines.push('', 'Altitudes run from where the day starts to where the night is spent.', '');
  for (const d of days) {
    const high = d.highPoint ? ` High point: ${d.highPoint.name}, ${formatMetres(d.highPoint.altitudeM)}.` : '';
    lines.push(`**Day ${d.day}: ${d.title}.** ${d.description.trim()}${high}`, '');
    if (d.acclimatisationNote) {
      const n = page.content.sources.findIndex((s) => s.url === d.acclimatisationSource) + 1;
      lines.push(
        `> Acclimatisation: ${d.acclimatisationNote.trim()}${n > 0 ? ` [${n}]` : ''}`.replace(/\s*\n\s*/g, ' '),
        '',
      );
    }
  }
  return lines;
}

function references(page: TripPage): string[] {
  return page.content.sources.map((s, i) => `${i + 1}. ${s.title}. ${publisherOf(s)}. [${hostOf(s.url)}](${s.url})`);
}

function departuresSection(catalogue: Catalogue, page: TripPage, live: LiveDepartures, now: Date): string[] {
  const { trip } = page;
  if (live.state !== 'live')
    return [`**${unavailableSentence(live)}** Ask us about dates through the enquiry path below.`, ''];
  const lines = [
    `Read live at ${readAt(now)}. As JSON: ${catalogue.siteUrl}/v1/departures?trip=${trip.slug}. As a calendar: ${trip.url}.ics`,
    '',
  ];
  if (live.departures.length === 0)
    return [...lines, 'No departures are on sale right now. Ask us about the next dates or a private group.', ''];
  return [...lines, ...departuresTable(live.departures, { withTrip: false }), ''];
}

export function tripMarkdown(catalogue: Catalogue, page: TripPage, live: LiveDepartures, now = new Date()): string {
  const { trip, content } = page;
  const list = (items: readonly string[]) => items.map((item) => `- ${item}`);
  const lines = [`# ${trip.name}`, '', `> ${trip.shortAnswer ?? trip.description}`.replace(/\s*\n\s*/g, ' '), ''];
  if (trip.alternateNames?.length) lines.push(`Also known as: ${trip.alternateNames.join(', ')}.`, '');
  lines.push('## Facts', '', ...facts(catalogue, page), '');
  lines.push('## Overview', '', trip.description.trim(), '');
  if (page.body.trim()) lines.push(page.body.trim(), '');
  lines.push('## Is this for beginners?', '', beginnerAnswer(trip.difficulty, content.experience), '');
  lines.push(
    `## What "${trip.difficulty}" means`,
    '',
    `${difficultyMeaning[trip.difficulty]}${trip.alpineGrade ? ` The climb itself is graded ${trip.alpineGrade} on the Alpine scale.` : ''}`,
    '',
  );
  lines.push(
    '## How to reach the start',
    '',
    ...gettingThereLines(content).map(({ label, text }) => `- ${label}: ${text}`),
    '',
  );
  const numbers = gettingThereReferenceNumbers(content);
  if (numbers.length > 0) lines.push(`From references ${numbers.map((n) => `[${n}]`).join(', ')} below.`, '');
  lines.push('## Itinerary', '', ...itinerary(page));
  lines.push('## Fitness and experience', '', content.fitness.trim(), '', content.experience.trim(), '');
  lines.push('## What is included', '', ...list(content.inclusions), '');
  lines.push('## What is not included', '', ...list(content.exclusions), '');
  lines.push('## Gear', '');
  for (const group of content.gear) lines.push(`### ${group.category}`, '', ...list(group.items), '');
  lines.push('## Departures', '', ...departuresSection(catalogue, page, live, now));
  lines.push(
    '## Price',
    '',
    trip.priceInr != null ? `${formatInr(trip.priceInr)} per person.` : 'Price on request.',
    ...priceTerms(catalogue, page),
  );
  if (trip.priceNote) lines.push('', trip.priceNote.trim());
  lines.push('', 'A departure may carry its own price; the departures table shows the price that applies.', '');
  lines.push('## How to enquire', '', ...enquiryLines(catalogue, page), '');
  lines.push('## Questions people ask', '');
  for (const faq of content.faqs) lines.push(`### ${faq.question}`, '', faq.answer.trim(), '');
  lines.push(
    '## Sources and references',
    '',
    `Altitudes, distances and walking times come from these references${trip.lastUpdated ? `, last checked on ${formatDate(trip.lastUpdated)}` : ''}.`,
    '',
    ...references(page),
    '',
  );
  lines.push(
    '---',
    '',
    `Page: ${trip.url} · JSON: ${catalogue.siteUrl}/v1/trips/${trip.slug} · Where the page and the API disagree on a number, the page is authoritative.`,
    '',
  );
  return lines.join('\n');
}

/** The answer for a trip slug that does not exist: where to find the trips instead. */
export function tripNotFoundMarkdown(catalogue: Catalogue, type: 'trek' | 'expedition', slug: string): string {
  const trips = catalogue.trips.filter((p) => p.trip.type === type);
  return [
    quoted(slug) ? `# No ${type} called ${quoted(slug)}` : `# No ${type} at this address`,
    '',
    `There is no ${type} at this address. The ${type === 'trek' ? 'treks' : 'expeditions'} we run:`,
    '',
    ...trips.map(({ trip }) => `- [${trip.name}](${trip.markdownUrl})`),
    '',
    `Every trip as JSON: ${catalogue.siteUrl}/v1/trips. Every page: ${catalogue.siteUrl}/sitemap-index.xml.`,
    '',
  ].join('\n');
}

/** The page a trip route names, when the type and slug match one. */
export function findTripPage(
  catalogue: Catalogue,
  type: 'trek' | 'expedition',
  slug: string | undefined,
): TripPage | undefined {
  const page = tripBySlug(catalogue, slug);
  return page?.trip.type === type ? page : undefined;
}
