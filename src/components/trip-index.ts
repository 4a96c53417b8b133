/**
 * The treks and expeditions index pages: their words (shared by the HTML page and its Markdown
 * twin, so the two say the same) and the twin itself.
 */
import type { Catalogue, TripPage } from '../../domain/catalogue/index.ts';
import type { Trip } from '../../domain/schemas/trip.ts';
import { countOf, formatDays, formatInr, formatMetres } from '../../domain/format.ts';
import { byDifficultyThenLength, durationBands, finderOptions } from './trip-finder.ts';
import { tripDays } from '../../domain/catalogue/trip-facts.ts';
import { difficultyMeaning } from '../../domain/catalogue/difficulty.ts';

/** The band meanings live with the catalogue, so trip pages and their twins quote the same text. */
export { difficultyMeaning };

export interface TripIndexCopy {
  path: string;
  noun: string;
  /** One of them: trek, expedition. */
  singular: string;
  title: string;
  heading: string;
  intro: string;
}

export const tripIndexCopy: Record<Trip['type'], TripIndexCopy> = {
  trek: {
    path: '/treks',
    noun: 'treks',
    singular: 'trek',
    title: 'Treks in the Indian Himalaya',
    heading: 'Treks in the Indian Himalaya',
    intro:
      'Guided camping and homestay treks across Ladakh, Himachal Pradesh, Uttarakhand and Sikkim, from first Himalayan walks to high pass crossings. Every trek is led by our own guides, in groups of up to 12.',
  },
  expedition: {
    path: '/expeditions',
    noun: 'expeditions',
    singular: 'expedition',
    title: 'Mountaineering expeditions in the Indian Himalaya',
    heading: 'Mountaineering expeditions',
    intro:
      'Guided climbs of Himalayan peaks from 5,000 m to over 6,000 m, with acclimatisation built into the itinerary, a 1:2 guide to climber ratio on summit day and groups of up to 8. Higher grades need a basic mountaineering course.',
  },
};

export function tripsOfType(catalogue: Catalogue, type: Trip['type']): TripPage[] {
  return catalogue.trips.filter((p) => p.trip.type === type).sort(byDifficultyThenLength);
}

export function tripIndexMarkdown(catalogue: Catalogue, type: Trip['type']): string {
  const copy = tripIndexCopy[type];
  const pages = tripsOfType(catalogue, type);
  const options = finderOptions(pages);
  const lines = [
    `# ${copy.heading}`,
    '',
    copy.intro,
    '',
    `${countOf(pages.length, copy.singular)}, easiest first. The HTML page at ${catalogue.siteUrl}${copy.path} filters them by region (\`region=${options.regions[0] ?? 'Ladakh'}\`), difficulty (\`difficulty=Moderate\`) and length (\`days=${durationBands.map((b) => b.id).join('|')}\`); the same data as JSON is at ${catalogue.siteUrl}/v1/trips?type=${type}.`,
    '',
  ];
  for (const page of pages) {
    const { trip, path } = page;
    lines.push(`## [${trip.name}](${catalogue.siteUrl}${path}.md)`, '');
    lines.push(`${trip.shortAnswer ?? trip.description}`, '');
    lines.push(`- Region: ${trip.region}`);
    lines.push(`- Difficulty: ${trip.difficulty}${trip.alpineGrade ? ` (Alpine grade ${trip.alpineGrade})` : ''}`);
    lines.push(`- Length: ${formatDays(tripDays(page))}`);
    if (trip.summitAltitudeM != null) lines.push(`- Highest point: ${formatMetres(trip.summitAltitudeM)}`);
    lines.push(`- Season: ${trip.season}`);
    lines.push(`- Price: ${trip.priceInr != null ? `${formatInr(trip.priceInr)} per person` : formatInr(null)}`);
    lines.push(`- Page: ${catalogue.siteUrl}${path}`, '');
  }
  lines.push('## Difficulty levels', '');
  for (const [level, meaning] of Object.entries(difficultyMeaning)) lines.push(`- **${level}**: ${meaning}`);
  lines.push('', `Live dates for every trip: ${catalogue.siteUrl}/departures.md`, '');
  return lines.join('\n');
}

/**
 * The trips the home page features: easiest first, one per region before any region repeats,
 * so a newcomer sees the spread of what we run.
 */
export function featuredTrips(catalogue: Catalogue, type: Trip['type'], count = 3): TripPage[] {
  const pages = tripsOfType(catalogue, type);
  const picked: TripPage[] = [];
  const seenRegions = new Set<string>();
  for (const page of pages) {
    const region =
      page.trip.region
        .split(',')
        .map((s) => s.trim())
        .at(-2) ?? page.trip.region;
    if (picked.length < count && !seenRegions.has(region)) {
      picked.push(page);
      seenRegions.add(region);
    }
  }
  for (const page of pages) if (picked.length < count && !picked.includes(page)) picked.push(page);
  return picked;
}

export const homeCopy = {
  heading: 'Guided treks and climbs in the Indian Himalaya',
  whatWeDo: (operatorName: string) =>
    `${operatorName} runs small-group treks and mountaineering expeditions in Ladakh, Himachal Pradesh, Uttarakhand and Sikkim. Our own guides lead every departure; we publish full day-by-day itineraries, altitudes, prices in rupees and live seat counts, so you can choose with the facts in front of you.`,
};
