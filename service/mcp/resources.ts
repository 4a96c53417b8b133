/**
 * The MCP resources. Trips and peaks are resource templates, one resource per trip or peak, each
 * listed and completable: a trip is its Markdown twin (with live departures) at the twin's
 * address, a peak is its /v1 answer (the /v1 handler answers its URI). The full peak dataset and
 * the agent instructions are single resources. Each is written by the same function as the page
 * or file it stands for. A URI that names nothing is the protocol's "resource not found", with the
 * URI in its data (the code each revision gives it: service/mcp/legacy-http.ts).
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  ResourceTemplate,
  UriTemplate,
  type McpServer,
} from '@modelcontextprotocol/server';
import { boardFilterNames } from '../departures/board-filters.ts';
import { feedPaths } from '../departures/alert-paths.ts';
import { tripBySlug, type TripPage } from '../../domain/catalogue/index.ts';
import type { Trip } from '../../domain/schemas/trip.ts';
import { agentInstructionsMarkdown } from '../guidance/agent-guidance.ts';
import { buildPeakDataset } from '../peak-data/peak-dataset.ts';
import { readLiveDepartures } from '../departures/live.ts';
import { tripMarkdown } from '../markdown/trip.ts';
import type { ErrorBody } from '../http/errors.ts';
import { handleV1 } from '../v1/index.ts';
import type { V1Deps } from '../v1/operations.ts';
import { departuresCacheHint } from './server-info.ts';
import { quoted } from '../http/quoted.ts';

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
    const find = (slug: string): TripPage | undefined => {
      const page = tripBySlug(catalogue, slug);
      return page?.trip.type === type ? page : undefined;
    };
    server.registerResource(
      `${type}s`,
      new ResourceTemplate(`${catalogue.siteUrl}/${folder}/{slug}.md`, {
        list: () => ({
          resources: trips.map(({ trip }) => ({
            uri: trip.markdownUrl,
            name: trip.slug,
            title: trip.name,
            description: trip.shortAnswer ?? trip.description,
            mimeType: 'text/markdown',
          })),
        }),
        complete: {
          slug: (value) =>
            startingWith(
              trips.map((page) => page.trip.slug),
              value,
            ),
        },
      }),
      {
        title: type === 'trek' ? 'Treks, each as Markdown' : 'Expeditions, each as Markdown',
        description: `One ${type} by slug: the trip page as Markdown (itinerary, fitness, inclusions, gear, FAQs) with its live departures. Slugs: GET ${catalogue.siteUrl}/v1/trips?type=${type}.`,
        mimeType: 'text/markdown',
        // It carries live departures: kept no longer than the departures answer.
        cacheHint: departuresCacheHint,
      },
      async (uri, variables) => {
        const page = find(one(variables.slug));
        if (!page)
          throw new ResourceNotFoundError(
            uri.href,
            `No ${type} has the slug ${quoted(one(variables.slug)) ?? 'given'}; list them with resources/list or GET ${catalogue.siteUrl}/v1/trips?type=${type}.`,
          );
        const live = await readLiveDepartures(deps.departures, catalogue, { tripSlug: page.trip.slug });
        return text(uri, 'text/markdown', tripMarkdown(catalogue, page, live));
      },
    );
  }
}

function registerPeakTemplate(server: McpServer, deps: V1Deps): void {
  const { catalogue } = deps;
  const ids = catalogue.peaks.map((peak) => peak.id);
  server.registerResource(
    'peaks',
    new ResourceTemplate(`${catalogue.siteUrl}/v1/peaks/{id}`, {
      list: () => ({
        resources: catalogue.peaks.map((peak) => ({
          uri: `${catalogue.siteUrl}/v1/peaks/${peak.id}`,
          name: peak.id,
          title: peak.name,
          mimeType: 'application/json',
        })),
      }),
      complete: { id: (value) => startingWith(ids, value) },
    }),
    {
      title: 'Peaks of the open dataset, each as JSON',
      description: `One peak by id, as GET /v1/peaks/{id} answers it (CC-BY-4.0; cite "${catalogue.attribution}").`,
      mimeType: 'application/json',
    },
    async (uri) => {
      // The URI is the /v1 address: the resource is what GET answers there.
      const response = await handleV1(new Request(uri.href, { headers: { Accept: 'application/json' } }), deps);
      if (response.ok) return text(uri, 'application/json', await response.text());
      const { error } = (await response.json()) as ErrorBody;
      const message =
        `${error.message} ${error.hint ?? ''} (GET ${uri.pathname} answers HTTP ${error.status}, code ${error.code})`.replace(
          /\s+/g,
          ' ',
        );
      if (response.status === 404) throw new ResourceNotFoundError(uri.href, message);
      throw new ProtocolError(ProtocolErrorCode.InternalError, message);
    },
  );
}

/**
 * One address with any query: `{?…}` names the parameters for a client, and a read matches the
 * path with its parameters in any order, or none (the SDK's own matcher wants them all, in order).
 */
class QueryTemplate extends UriTemplate {
  readonly #base: string;
  constructor(base: string, names: readonly string[]) {
    super(`${base}{?${names.join(',')}}`);
    this.#base = base;
  }
  override match(uri: string): Record<string, string> | null {
    const url = URL.parse(uri);
    return url && `${url.origin}${url.pathname}` === this.#base ? Object.fromEntries(url.searchParams) : null;
  }
}

/** A search's changes (service/alerts/feeds.ts): the JSON Feed at the same address, for the same filters. */
function registerChangesTemplate(server: McpServer, deps: V1Deps, changes: ChangesFeed): void {
  const { catalogue } = deps;
  const base = `${catalogue.siteUrl}${feedPaths.json}`;
  server.registerResource(
    'departure-changes',
    new ResourceTemplate(new QueryTemplate(base, boardFilterNames), { list: undefined }),
    {
      title: 'Changes of a departure search, as JSON Feed',
      description: `New dates, seats opened, lower prices, status changes and cancellations of the departures a search finds, newest first, with stable ids: the JSON Feed 1.1 at ${base} (also as Atom at ${catalogue.siteUrl}${feedPaths.atom}), with the filters of list_departures in the address, or none for every departure.`,
      mimeType: 'application/feed+json',
      cacheHint: departuresCacheHint,
    },
    async (uri) => {
      try {
        return text(uri, 'application/feed+json', await changes(uri.searchParams));
      } catch (error) {
        throw new ProtocolError(
          ProtocolErrorCode.InternalError,
          `The changes cannot be read just now (${error instanceof Error ? error.message : String(error)}); try again in a minute.`,
        );
      }
    },
  );
}

/** The JSON Feed of a search's changes, for the filters given (service/functions/mcp.ts makes it). */
export type ChangesFeed = (query: URLSearchParams) => Promise<string>;

export function registerResources(server: McpServer, deps: V1Deps, changes?: ChangesFeed): void {
  const { catalogue } = deps;
  registerTripTemplates(server, deps);
  registerPeakTemplate(server, deps);
  if (changes) registerChangesTemplate(server, deps, changes);
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
    {
      title: 'Agent instructions',
      description: 'How to use this catalogue, and what an agent must not do.',
      mimeType: 'text/markdown',
    },
    (uri) => text(uri, 'text/markdown', agentInstructionsMarkdown(catalogue)),
  );
}
