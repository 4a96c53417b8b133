/**
 * The MCP resources. Trips and peaks are resource templates, one resource per trip or peak, each
 * listed and completable: a trip is its Markdown twin (with live departures) at the twin's
 * address, a peak is its /v1 answer. The full peak dataset and the agent instructions are single
 * resources. Each is written by the same function as the page or file it stands for.
 */
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { TripPage } from '../../domain/catalogue/index.ts';
import type { Trip } from '../../domain/schemas/trip.ts';
import { agentInstructionsMarkdown } from '../agents/guidance.ts';
import { buildPeakDataset } from '../agents/peak-dataset.ts';
import { readLiveDepartures } from '../departures/live.ts';
import { tripMarkdown } from '../markdown/trip.ts';
import { ApiError } from '../http/errors.ts';
import { operations, type V1Deps } from '../v1/operations.ts';

function text(uri: URL, mimeType: string, body: string) {
  return { contents: [{ uri: uri.href, mimeType, text: body }] };
}

/** A template variable as one value (the SDK hands over a list when a variable repeats). */
const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? '';

const startingWith = (values: string[], prefix: string) => values.filter((v) => v.startsWith(prefix)).slice(0, 100);

/** Where a trip's Markdown twin lives, by type: `/treks/{slug}.md`, `/expeditions/{slug}.md`. */
const tripFolders: Record<Trip['type'], string> = { trek: 'treks', expedition: 'expeditions' };

function registerTripTemplates(server: McpServer, deps: V1Deps): void {
  const { catalogue } = deps;
  for (const [type, folder] of Object.entries(tripFolders) as [Trip['type'], string][]) {
    const trips = catalogue.trips.filter((page) => page.trip.type === type);
    const find = (slug: string): TripPage | undefined => trips.find((page) => page.trip.slug === slug);
    server.registerResource(
      `${type}s`,
      new ResourceTemplate(`${catalogue.siteUrl}/${folder}/{slug}.md`, {
        list: () => ({
          resources: trips.map(({ trip }) => ({ uri: trip.markdownUrl, name: trip.slug, title: trip.name, description: trip.shortAnswer ?? trip.description, mimeType: 'text/markdown' })),
        }),
        complete: { slug: (value) => startingWith(trips.map((page) => page.trip.slug), value) },
      }),
      {
        title: type === 'trek' ? 'Treks, each as Markdown' : 'Expeditions, each as Markdown',
        description: `One ${type} by slug: the trip page as Markdown (itinerary, fitness, inclusions, gear, FAQs) with its live departures. Slugs: GET ${catalogue.siteUrl}/v1/trips?type=${type}.`,
        mimeType: 'text/markdown',
      },
      async (uri, variables) => {
        const page = find(one(variables.slug));
        if (!page) throw new McpError(ErrorCode.InvalidParams, `No ${type} has the slug "${one(variables.slug).slice(0, 80)}"; list them with resources/list or GET ${catalogue.siteUrl}/v1/trips?type=${type}.`);
        const live = await readLiveDepartures(deps.departures, catalogue, { tripSlug: page.trip.slug });
        return text(uri, 'text/markdown', tripMarkdown(catalogue, page, live));
      },
    );
  }
}

const getPeak = operations.find((op) => op.operationId === 'getPeak')!;

function registerPeakTemplate(server: McpServer, deps: V1Deps): void {
  const { catalogue } = deps;
  const ids = catalogue.peaks.map((peak) => peak.id);
  server.registerResource(
    'peaks',
    new ResourceTemplate(`${catalogue.siteUrl}/v1/peaks/{id}`, {
      list: () => ({
        resources: catalogue.peaks.map((peak) => ({ uri: `${catalogue.siteUrl}/v1/peaks/${peak.id}`, name: peak.id, title: peak.name, mimeType: 'application/json' })),
      }),
      complete: { id: (value) => startingWith(ids, value) },
    }),
    {
      title: 'Peaks of the open dataset, each as JSON',
      description: `One peak by id, as GET /v1/peaks/{id} answers it (CC-BY-4.0; cite "${catalogue.attribution}").`,
      mimeType: 'application/json',
    },
    async (uri, variables) => {
      const id = one(variables.id);
      try {
        // The operation behind GET /v1/peaks/{id}, so the resource is that answer.
        const answer = await getPeak.run({ url: new URL(`${catalogue.siteUrl}/v1/peaks/${encodeURIComponent(id)}`), pathParam: id, deps });
        return text(uri, 'application/json', JSON.stringify(answer));
      } catch (error) {
        if (error instanceof ApiError) throw new McpError(ErrorCode.InvalidParams, `${error.message} ${error.hint ?? ''}`.trim());
        throw error;
      }
    },
  );
}

export function registerResources(server: McpServer, deps: V1Deps): void {
  const { catalogue } = deps;
  registerTripTemplates(server, deps);
  registerPeakTemplate(server, deps);
  server.registerResource(
    'peak-dataset',
    `${catalogue.siteUrl}/peak-data/peaks.json`,
    {
      title: `${catalogue.site.dataset.name} v${catalogue.site.dataset.version}`,
      description: `Every peak with coordinates, first ascent and references; CC-BY-4.0. Attribution: ${catalogue.attribution}`,
      mimeType: 'application/json',
    },
    (uri) => text(uri, 'application/json', `${JSON.stringify(buildPeakDataset(catalogue), null, 2)}\n`),
  );
  server.registerResource(
    'agent-instructions',
    `${catalogue.siteUrl}/agent-instructions.md`,
    { title: 'Agent instructions', description: 'How to use this catalogue, and what an agent must not do.', mimeType: 'text/markdown' },
    (uri) => text(uri, 'text/markdown', agentInstructionsMarkdown(catalogue)),
  );
}
