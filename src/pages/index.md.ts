/** The home page as Markdown. */
import type { APIRoute } from 'astro';
import { markdownResponse } from '../../service/markdown/response.ts';
import { featuredTrips, homeCopy, tripsOfType } from '../components/trip-index.ts';
import { formatDays, formatInr } from '../../domain/format.ts';
import { tripDays } from '../../domain/catalogue/trip-facts.ts';
import { getCatalogue } from '../lib/catalogue.ts';

export const GET: APIRoute = async () => {
  const c = await getCatalogue();
  const tripLine = (page: ReturnType<typeof tripsOfType>[number]) =>
    `- [${page.trip.name}](${page.trip.markdownUrl}): ${page.trip.difficulty}, ${formatDays(tripDays(page))}, ${page.trip.region}; ${page.trip.priceInr != null ? `${formatInr(page.trip.priceInr)} per person` : formatInr(null)}`;
  const lines = [
    `# ${c.site.operatorName}: ${homeCopy.heading}`,
    '',
    homeCopy.whatWeDo(c.site.operatorName),
    '',
    `Find a date that fits: ${c.siteUrl}/departures.md searches the departures on sale by dates, kind, difficulty, length, group size and budget (for example ${c.siteUrl}/departures.md?type=trek&difficulty=Moderate&maxDays=8&minSeats=2&maxPriceInr=25000). Every trek: ${c.siteUrl}/treks.md.`,
    '',
    '## Featured treks',
    '',
    ...featuredTrips(c, 'trek').map(tripLine),
    '',
    `All treks: ${c.siteUrl}/treks.md`,
    '',
    '## Featured expeditions',
    '',
    ...featuredTrips(c, 'expedition').map(tripLine),
    '',
    `All expeditions: ${c.siteUrl}/expeditions.md`,
    '',
    '## Next departures',
    '',
    `Dates, seats left and prices: ${c.siteUrl}/departures.md (live). To book, send an enquiry from the trip page or email ${c.site.contactEmail}; a guide calls you back to confirm fitness and dates.`,
    '',
    '## Open data and API',
    '',
    `- [Peak dataset](${c.siteUrl}/peak-data.md): ${c.peaks.length} Indian Himalayan climbing peaks, CC-BY-4.0.`,
    `- [Developer page](${c.siteUrl}/developers.md): the read-only JSON API under ${c.siteUrl}/v1/, no key needed.`,
    `- [llms.txt](${c.siteUrl}/llms.txt): the guide for agents.`,
    '',
  ];
  return markdownResponse(lines.join('\n'));
};
