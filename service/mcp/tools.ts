/**
 * The MCP tools: one per /v1 operation that reads the catalogue, with input schemas made from
 * the operation's own parameter declarations (service/http/query-params.ts). A call is answered by the
 * /v1 handler itself, given the GET request the arguments stand for, so a tool accepts what its
 * endpoint accepts and answers exactly what it answers: the same envelope, or the same error
 * code. Results are the /v1 envelope as structured content plus a readable summary; a departure
 * search that finds nothing also names, in the summary, the single changes of one filter that would.
 */
import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import { z } from 'astro/zod';
import { formatInr, formatMetres } from '../../domain/format.ts';
import { ApiError, errorResponse, type ErrorBody } from '../http/errors.ts';
import { handleV1 } from '../v1/index.ts';
import { operations, type Operation, type V1Deps } from '../v1/operations.ts';
import { toolArgument } from '../http/query-params.ts';
import { operationResponses } from '../v1/responses.ts';
import type { Departure } from '../../domain/schemas/departure.ts';
import { relaxations } from '../departures/relaxation.ts';
import { isFiltered, readSearch } from '../departures/search.ts';
import type { Peak } from '../../domain/schemas/peak.ts';
import type { Trip } from '../../domain/schemas/trip.ts';
import { markdownCode } from '../markdown/text.ts';
import { registerAppTool } from '@modelcontextprotocol/ext-apps/server';
import { plainClient, toolViews, type ClientOffer } from './views.ts';
import { feedLinks } from '../departures/alert-paths.ts';

interface ToolDefinition {
  name: string;
  title: string;
  operationId: string;
  /** Readable text for the model, next to the structured envelope; `url` is the /v1 request the arguments stand for. */
  summarize(data: never, deps: V1Deps, url: URL): string | Promise<string>;
}

export function tripLine(t: Trip): string {
  const parts = [
    `${t.difficulty} ${t.type}`,
    t.durationDays != null ? `${t.durationDays} days` : undefined,
    t.summitAltitudeM != null ? `up to ${formatMetres(t.summitAltitudeM)}` : undefined,
    t.region,
    t.season,
    t.priceInr != null ? `${formatInr(t.priceInr)} per person` : formatInr(null).toLowerCase(),
  ].filter(Boolean);
  return `- ${t.name} (slug ${t.slug}): ${parts.join('; ')}. ${t.url}`;
}

function peakLine(p: Peak): string {
  return `- ${p.name} (id ${p.id}): ${formatMetres(p.altitudeM)}, grade ${p.technicalGrade}, ${p.range}, ${p.region}; open peak: ${p.openPeak ? 'yes' : 'no'}`;
}

function departureLine(d: Departure): string {
  const seats =
    d.seatsLeft != null
      ? `${d.seatsLeft}${d.seatsTotal != null ? ` of ${d.seatsTotal}` : ''} seats left`
      : 'seats not published';
  const price = d.priceInr != null ? `, ${formatInr(d.priceInr)}` : '';
  return `- ${d.tripName} (${d.tripSlug}): ${d.startDate} to ${d.endDate}, ${d.status}, ${seats}${price}${d.note ? `. ${d.note}` : ''}`;
}

/**
 * A search that found nothing: the single changes of one filter that would find dates
 * (departures/relaxation.ts), each as the arguments to call again with.
 */
async function changesThatFind(url: URL, deps: V1Deps): Promise<string[]> {
  const search = readSearch(url);
  if (!isFiltered(search)) return [];
  const everything = (await operationOf('listDepartures').run({
    url: new URL(url.pathname, url),
    pathParam: undefined,
    deps,
  })) as { data: Departure[] };
  const changes = relaxations(everything.data, search, deps.catalogue);
  if (changes.length === 0) return ['No change of one filter finds a departure.'];
  return [
    'Changing one filter would find some:',
    ...changes.map(
      (c) =>
        `- ${c.words}: list_departures ${markdownCode(JSON.stringify(Object.fromEntries(new URLSearchParams(c.search))))}`,
    ),
  ];
}

/** Where the search's changes are followed: its feeds (service/alerts/feeds.ts), and the resource of the same changes. */
function changesLine(url: URL, deps: V1Deps): string {
  const links = feedLinks(readSearch(url));
  const site = deps.catalogue.siteUrl;
  return `This search's changes (new dates, seats opened, lower prices, cancellations), as a feed: ${site}${links.atom} (Atom) or ${site}${links.json} (JSON Feed, also the resource of the same address).`;
}

export const toolDefinitions: ToolDefinition[] = [
  {
    name: 'list_trips',
    title: 'List treks and expeditions',
    operationId: 'listTrips',
    summarize: (data: { count: number; data: Trip[] }) =>
      [
        `${data.count} trip(s). Each trip's markdownUrl holds its itinerary and FAQs; its page (url) is authoritative.`,
        ...data.data.map(tripLine),
      ].join('\n'),
  },
  {
    name: 'get_trip',
    title: 'Get one trip',
    operationId: 'getTrip',
    summarize: ({ data: t }: { data: Trip }) =>
      [
        tripLine(t),
        '',
        t.shortAnswer ?? t.description,
        '',
        `Itinerary, inclusions, gear and FAQs: ${t.markdownUrl}`,
      ].join('\n'),
  },
  {
    name: 'list_departures',
    title: 'List live departures',
    operationId: 'listDepartures',
    summarize: async (data: { count: number; data: Departure[] }, deps, url) =>
      [
        `${data.count} published departure(s), read at ${new Date().toISOString()}, earliest first. Seats are confirmed by a guide after an enquiry; nothing is held by reading this.`,
        ...data.data.map(departureLine),
        ...(data.count === 0 ? await changesThatFind(url, deps) : []),
        changesLine(url, deps),
      ].join('\n'),
  },
  {
    name: 'list_peaks',
    title: 'List peaks of the open dataset',
    operationId: 'listPeaks',
    summarize: (data: { count: number; attribution: string; data: Peak[] }) =>
      [`${data.count} peak(s). CC-BY-4.0; cite with a link: ${data.attribution}`, ...data.data.map(peakLine)].join(
        '\n',
      ),
  },
  {
    name: 'get_peak',
    title: 'Get one peak of the open dataset',
    operationId: 'getPeak',
    summarize: ({ data: p }: { data: Peak }, deps) =>
      [peakLine(p), '', p.summary, '', `CC-BY-4.0; cite with a link: ${deps.catalogue.attribution}`].join('\n'),
  },
];

function slugPatternOf(op: Operation): string {
  const pattern = op.pathParam?.openapi.pattern;
  return typeof pattern === 'string' ? pattern : '';
}

export function operationOf(id: string): Operation {
  const op = operations.find((o) => o.operationId === id);
  if (!op) throw new Error(`service/mcp/tools.ts names ${id}, which service/v1/operations.ts does not declare`);
  return op;
}

/** Typed arguments from the declarations /v1 parses the query string with. */
export function toolInputSchema(op: Operation) {
  const shape: Record<string, z.ZodType> = {};
  // Any text, as in the path: a value that breaks the pattern finds nothing (404 code), as on /v1.
  if (op.pathParam)
    shape[op.pathParam.name] = z
      .string()
      .min(1)
      .describe(`${op.pathParam.description} Pattern ${slugPatternOf(op)}.`);
  for (const [name, param] of Object.entries(op.query)) shape[name] = toolArgument(name, param).optional();
  // Unknown arguments are refused, as /v1 refuses unknown query parameters: a misspelt filter
  // must not quietly return the unfiltered list.
  return z.strictObject(shape);
}

/** The /v1 request the arguments stand for: the path value as one escaped segment, each filter as its query text. */
function operationUrl(op: Operation, args: Record<string, unknown>, siteUrl: string): URL {
  const path = op.pathParam
    ? op.path.replace(`{${op.pathParam.name}}`, encodeURIComponent(String(args[op.pathParam.name])))
    : op.path;
  const url = new URL(`${siteUrl}/v1${path}`);
  for (const name of Object.keys(op.query)) {
    const value = args[name];
    // Each argument was held to its parameter's schema (toolArgument): text, a number or a boolean.
    if (value !== undefined && value !== null) url.searchParams.set(name, `${value as string | number | boolean}`);
  }
  return url;
}

/**
 * What /v1 answers the request the arguments stand for. A path value of `.` or `..` is a dot
 * segment, which no request can carry: clients and hosts resolve `/v1/trips/..` to `/v1/` before
 * any handler sees it. Such a value is answered as the operation answers any value that names
 * nothing (its not-found code), and the text says why no GET gives that answer.
 */
async function restAnswer(
  op: Operation,
  args: Record<string, unknown>,
  deps: V1Deps,
): Promise<{ status: number; body: unknown; where: string; url: URL; location?: string }> {
  const url = operationUrl(op, args, deps.catalogue.siteUrl);
  const value = op.pathParam ? String(args[op.pathParam.name]) : undefined;
  if (value === '.' || value === '..') {
    const path = `/v1${op.path.replace(`{${op.pathParam!.name}}`, value)}`;
    const refusal = await op.run({ url, pathParam: value, deps }).then(
      () => new Error(`${op.operationId} found "${value}"`),
      (error: unknown) => error,
    );
    if (!(refusal instanceof ApiError)) throw refusal;
    const answer = errorResponse(refusal, deps.catalogue.siteUrl);
    return {
      status: answer.status,
      body: await answer.json(),
      where: `as /v1 answers a ${op.pathParam!.name} that names nothing; no GET can ask it, as GET ${markdownCode(path)} is resolved to ${markdownCode(new URL(path, url).pathname)} first`,
      url,
    };
  }
  const response = await handleV1(new Request(url, { headers: { Accept: 'application/json' } }), deps);
  const location = response.headers.get('Location');
  return {
    status: response.status,
    body: await response.json(),
    // The address holds the arguments as given (`*`, `_` and `~` are not escaped in a URL): code, not Markdown.
    where: `GET ${markdownCode(`${url.pathname}${url.search}`)} answers HTTP ${response.status} with the same code`,
    url,
    ...(location ? { location } : {}),
  };
}

/**
 * What /v1 answers, with a redirect followed once: an id whose peak has another id now (301
 * `peak_moved`) answers that peak, and `moved` says so in the words /v1 used.
 */
async function followedAnswer(op: Operation, args: Record<string, unknown>, deps: V1Deps) {
  const answer = await restAnswer(op, args, deps);
  if (answer.status !== 301 || !answer.location || !op.pathParam) return { answer, moved: undefined };
  const target = decodeURIComponent(new URL(answer.location).pathname.split('/').at(-1) ?? '');
  const moved = (answer.body as ErrorBody).error.message;
  return { answer: await restAnswer(op, { ...args, [op.pathParam.name]: target }, deps), moved };
}

/** A failed call as the model reads it: the /v1 error, its code and the request that gives it. */
function errorText({ error }: ErrorBody, where: string): string {
  return `${error.message}${error.hint ? ` ${error.hint}` : ''} (code ${error.code}; ${where})`;
}

/**
 * Registers the read-only tools. With `offer.views` (a client that shows MCP App views), the
 * tools that have a view name it in `_meta` (service/mcp/views.ts); nothing else differs.
 */
export function registerTools(server: McpServer, deps: V1Deps, offer: ClientOffer = plainClient): void {
  for (const tool of toolDefinitions) {
    const op = operationOf(tool.operationId);
    const config = {
      title: tool.title,
      description: `${op.summary} ${op.description} Same data as GET /v1${op.path}.`,
      inputSchema: toolInputSchema(op),
      outputSchema: operationResponses[op.response.name] as z.ZodObject,
      annotations: {
        title: tool.title,
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    };
    const answer = async (args: Record<string, unknown>): Promise<CallToolResult> => {
      const { answer, moved } = await followedAnswer(op, args, deps);
      if (answer.status !== 200)
        return {
          isError: true,
          content: [{ type: 'text', text: errorText(answer.body as ErrorBody, answer.where) }],
        };
      const data = answer.body as Record<string, unknown>;
      const summary = await tool.summarize(data as never, deps, answer.url);
      return {
        structuredContent: data,
        content: [{ type: 'text', text: moved ? `${moved}\n\n${summary}` : summary }],
      };
    };
    const view = offer.views ? toolViews[tool.name] : undefined;
    if (view) registerAppTool(server, tool.name, { ...config, _meta: { ui: { resourceUri: view } } }, answer);
    else server.registerTool(tool.name, config, answer);
  }
}
