/**
 * One trip as Markdown: facts, overview, itinerary, fitness, inclusions, gear, FAQs and sources.
 * llms-full.txt stacks these one after another and the MCP server reads them out as resources,
 * so the heading level is a parameter: 1 for a page of its own, deeper inside a longer text.
 * Live departures are not part of it; they change by the minute and have their own endpoint.
 */
import type { Catalogue, TripPage } from '../catalogue/index.ts';

const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 0 });

export function formatInr(amount: number): string {
  return inr.format(amount);
}

function heading(level: number, text: string): string {
  return `${'#'.repeat(Math.min(level, 6))} ${text}`;
}

/** Pushes the overview's own headings below the trip's heading. */
function nest(markdown: string, level: number): string {
  return markdown.replace(/^(#{1,6}) /gm, (_, hashes: string) => `${'#'.repeat(Math.min(hashes.length + level, 6))} `);
}

function facts(page: TripPage): string[] {
  const { trip, content } = page;
  const altitude = trip.altitudeLabel ?? (trip.summitAltitudeM != null ? `${trip.summitAltitudeM} m` : undefined);
  const duration = trip.durationLabel ?? (trip.durationDays != null ? `${trip.durationDays} days` : undefined);
  const price = trip.priceInr != null ? `${formatInr(trip.priceInr)} per person` : 'on request';
  const rows: [string, string | undefined][] = [
    ['Type', trip.type],
    ['Region', trip.region],
    ['Difficulty', trip.difficulty],
    ['Alpine grade', trip.alpineGrade],
    ['Highest altitude', altitude],
    ['Duration', duration],
    ['Distance', content.distanceKm != null ? `${content.distanceKm} km` : undefined],
    ['Season', trip.season],
    ['Best window', trip.seasonWindow],
    ['Group size', trip.groupSize],
    ['Start and end', trip.startEnd],
    ['Base', content.base],
    ['Price', trip.priceNote ? `${price}. ${trip.priceNote}` : price],
    ['Last updated', trip.lastUpdated],
  ];
  return rows.flatMap(([label, value]) => (value ? [`- ${label}: ${value}`] : []));
}

function itineraryDay(day: TripPage['content']['itinerary'][number]): string {
  const extras = [
    `${day.startAltitudeM} m to ${day.endAltitudeM} m`,
    day.distanceKm != null ? `${day.distanceKm} km` : undefined,
    day.walkingHours != null ? `about ${day.walkingHours} h walking` : undefined,
  ].filter(Boolean);
  return `- **Day ${day.day}: ${day.title}** (${day.from} to ${day.to}; ${extras.join(', ')}). ${day.description.trim()}`;
}

export function tripMarkdown(page: TripPage, catalogue: Catalogue, level = 1): string {
  const { trip, content } = page;
  const sub = level + 1;
  const lines = [
    heading(level, trip.name),
    '',
    `> ${(trip.shortAnswer ?? trip.description).trim()}`,
    '',
    `Page: ${trip.url} (authoritative when numbers disagree). Live dates and seats: ${catalogue.siteUrl}/v1/departures?trip=${trip.slug}`,
    '',
    ...facts(page),
    '',
    heading(sub, 'Overview'),
    '',
    trip.description.trim(),
    '',
    ...(page.body.trim() ? [nest(page.body.trim(), sub), ''] : []),
    heading(sub, 'Itinerary'),
    '',
    ...content.itinerary.map(itineraryDay),
    '',
    heading(sub, 'Fitness and experience'),
    '',
    content.fitness.trim(),
    '',
    content.experience.trim(),
    '',
    heading(sub, 'Included'),
    '',
    ...content.inclusions.map((item) => `- ${item}`),
    '',
    heading(sub, 'Not included'),
    '',
    ...content.exclusions.map((item) => `- ${item}`),
    '',
    heading(sub, 'Gear'),
    '',
    ...content.gear.map((group) => `- ${group.category}: ${group.items.join(', ')}`),
    '',
    heading(sub, 'Questions and answers'),
    '',
    ...content.faqs.flatMap((faq) => [heading(sub + 1, faq.question.trim()), '', faq.answer.trim(), '']),
    heading(sub, 'Sources'),
    '',
    ...content.sources.map((source) => `- [${source.title}](${source.url})`),
    '',
  ];
  return lines.join('\n');
}
