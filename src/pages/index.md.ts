/** The home page as Markdown. */
import type { APIRoute } from 'astro';
import { getCatalogue } from '../lib/catalogue.ts';
import { markdownResponse } from '../../api/markdown/response.ts';

export const GET: APIRoute = async () => {
  const c = await getCatalogue();
  const lines = [
    `# ${c.site.operatorName}: treks and expeditions in the Indian Himalaya`,
    '',
    `> ${c.site.description}`,
    '',
    '## Trips',
    '',
    ...c.trips.map(({ trip }) => `- [${trip.name}](${trip.markdownUrl}): ${trip.difficulty}, ${trip.durationDays ?? '?'} days, ${trip.region}`),
    '',
  ];
  return markdownResponse(lines.join('\n'));
};
