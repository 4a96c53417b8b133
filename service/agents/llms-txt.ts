/**
 * llms.txt (llmstxt.org): an H1, a one-paragraph summary in a blockquote, a few sentences on
 * how to use the site, then H2 sections of `- [name](url): notes` links. Trips link their
 * Markdown twins; every published file is linked once, the skippable ones under "Optional".
 */
import type { Catalogue, TripPage } from '../../domain/catalogue/index.ts';
import { enquiryOpenApiPath, siteFiles, siteFileUrl } from '../site-files.ts';
import { searchExample, searchNames } from '../departures/search.ts';
import { feedPaths } from '../departures/alert-paths.ts';
import { peakDataFileList } from '../../domain/catalogue/peak-data-files.ts';
import { formatInr, formatMetres } from '../../domain/format.ts';

interface Link {
  name: string;
  url: string;
  notes: string;
}

function linkLine(link: Link): string {
  return `- [${link.name}](${link.url}): ${link.notes}`;
}

function tripNotes({ trip }: TripPage): string {
  const parts = [
    trip.type === 'expedition' && trip.alpineGrade
      ? `${trip.difficulty} expedition, grade ${trip.alpineGrade}`
      : `${trip.difficulty} ${trip.type}`,
    trip.durationDays != null ? `${trip.durationDays} days` : undefined,
    trip.summitAltitudeM != null ? `up to ${formatMetres(trip.summitAltitudeM)}` : undefined,
    trip.region,
    trip.season,
    trip.priceInr != null ? `${formatInr(trip.priceInr)} per person` : formatInr(null).toLowerCase(),
  ];
  return parts.filter(Boolean).join('; ');
}

export function buildLlmsTxt(catalogue: Catalogue): string {
  const site = catalogue.siteUrl;
  const linked = new Set<string>();
  const file = (path: string, name?: string, notes?: string): Link => {
    const found = siteFiles.find((f) => f.path === path);
    if (!found) throw new Error(`${path} is not in service/site-files.ts`);
    linked.add(path);
    return { name: name ?? found.title, url: siteFileUrl(site, found), notes: notes ?? found.description };
  };
  const section = (title: string, links: Link[]) => [`## ${title}`, '', ...links.map(linkLine), ''];

  const typeOrder = { trek: 0, expedition: 1 };
  const trips = [...catalogue.trips].sort(
    (a, b) => typeOrder[a.trip.type] - typeOrder[b.trip.type] || a.trip.name.localeCompare(b.trip.name),
  );
  const api: Link[] = [
    file('/openapi.json'),
    {
      name: 'Service index',
      url: `${site}/v1/`,
      notes: 'Every operation, file, rate limit and licence term of the JSON API (GET, no key).',
    },
    {
      name: 'Developer page',
      url: `${site}/developers`,
      notes: 'The API reference for people, with examples and the error and rate-limit rules.',
    },
    file(
      '/mcp/server-card',
      'MCP server',
      `Server card of the streamable HTTP MCP endpoint at ${site}/mcp: the API's operations as tools (and send_enquiry), trips, peaks and the dataset as resources.`,
    ),
    file(
      enquiryOpenApiPath,
      'Booking enquiry (OpenAPI)',
      `POST ${site}/api/bookings, the one action here: a person's booking enquiry, sent with their consent; a guide calls them back.`,
    ),
  ];
  const dataset: Link[] = [
    ...peakDataFileList.map((f) => file(f.path)),
    {
      name: 'Peaks API',
      url: `${site}/v1/peaks`,
      notes: `The same peaks, filterable (openPeak, firstSixThousanderCandidate, operatorOperated, maxAltitudeM). Attribution: ${catalogue.attribution}`,
    },
  ];
  const agentFiles: Link[] = [
    file('/agent-instructions.md'),
    file('/llm-guidance.json'),
    file('/departures.md'),
    {
      name: 'Departure changes (Atom)',
      url: `${site}${feedPaths.atom}`,
      notes: `New dates, seats opened, lower prices, status changes and cancellations, newest first; any filter of ${site}/departures.md narrows it (also as JSON Feed 1.1: ${site}${feedPaths.json}, and the MCP resource of a search's changes).`,
    },
    file('/agent-skills/index.json'),
  ];
  const optional = siteFiles
    .filter((f) => !linked.has(f.path) && f.path !== '/llms.txt')
    .map((f) => ({ name: f.title, url: siteFileUrl(site, f), notes: f.description }));

  return [
    `# ${catalogue.site.operatorName}: Himalayan treks, expeditions and peak data`,
    '',
    `> ${catalogue.site.description.trim()}`,
    '',
    `The catalogue is public and read-only; no key is needed. Each trip page has a Markdown twin at its address plus \`.md\`, and any page answers \`Accept: text/markdown\`. ` +
      `The JSON API lives at ${site}/v1/ and the same operations are MCP tools at ${site}/mcp. ` +
      `To find dates that fit, search the live departures once: ${site}/v1/departures (or ${site}/departures.md, or the MCP tool list_departures) takes ${searchNames.map((n) => `\`${n}\``).join(', ')}, combined with AND; for ${searchExample.question}: ${site}/departures.md${searchExample.query}. ` +
      `One thing can be sent: a booking enquiry for a person (${site}${enquiryOpenApiPath}, or the MCP tool send_enquiry), only with their own name and phone number and their explicit consent; otherwise send them to the trip page's form. ` +
      'Where numbers disagree, the trip page is authoritative.',
    '',
    ...section(
      'Trips',
      trips.map((page) => ({ name: page.trip.name, url: page.trip.markdownUrl, notes: tripNotes(page) })),
    ),
    ...section('API', api),
    ...section('Dataset', dataset),
    ...section('Agent files', agentFiles),
    ...section('Optional', optional),
  ].join('\n');
}
