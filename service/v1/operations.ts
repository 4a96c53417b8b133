/**
 * The six /v1 operations, declared once. The router dispatches on these, the service index
 * lists them, and the OpenAPI document is generated from them.
 */
import { tripBySlug, type Catalogue } from '../../domain/catalogue/index.ts';
import { peakDataFiles, releaseFilePath } from '../../domain/catalogue/peak-data-files.ts';
import { toPeakResource } from '../../domain/catalogue/peaks.ts';
import type { RemovedPeakId } from '../../domain/schemas/site.ts';
import { toDeparture, type DepartureSource } from '../departures/source.ts';
import { ApiError, type ErrorCode } from '../http/errors.ts';
import { quoted } from '../http/quoted.ts';
import type { cachePolicy } from '../http/cache-policy.ts';
import { difficulties, slugPattern, tripTypes } from '../../domain/schemas/vocabulary.ts';
import {
  booleanParam,
  enumParam,
  parseQuery,
  positiveIntegerParam,
  regionParam,
  type QueryParameters,
} from '../http/query-params.ts';
import {
  readSearch,
  searchDepartures,
  searchExample,
  searchParameters,
  searchRuleExamples,
} from '../departures/search.ts';
import type { ResponseName } from './responses.ts';
import { buildServiceIndex } from './service-index.ts';

export interface V1Deps {
  catalogue: Catalogue;
  /**
   * Null when the deployment has no operational storage. Its reads are bounded in time by the
   * source itself (on the hosts, service/departures/recent-reads.ts): a failure, a hang cut
   * short, answers 502.
   */
  departures: DepartureSource | null;
  /** Where storage failures are reported; console.error unless given. */
  log?: (line: string) => void;
}

interface OperationContext {
  url: URL;
  pathParam: string | undefined;
  deps: V1Deps;
}

interface PathParameter {
  name: string;
  description: string;
  /** JSON Schema of the segment, for the OpenAPI document. A segment that breaks it simply finds nothing. */
  openapi: Record<string, unknown>;
  notFound: ErrorCode;
  /** An existing value, for the OpenAPI document's examples. */
  example(catalogue: Catalogue): string | undefined;
}

/** The groups of the OpenAPI document, one per resource (service/v1/openapi.ts describes them). */
export const operationTags = ['Service', 'Trips', 'Departures', 'Peaks'] as const;

export interface Operation {
  operationId: string;
  tag: (typeof operationTags)[number];
  /** Path relative to the API root, OpenAPI style. */
  path: string;
  summary: string;
  description: string;
  query: QueryParameters;
  /** Queries whose values are each accepted but break a rule between them, for the OpenAPI document's 400 examples. */
  ruleBreaking?: { summary: string; query: string }[];
  pathParam?: PathParameter;
  /** The body it answers with (its schema: responses.ts). */
  response: { name: ResponseName };
  errors: ErrorCode[];
  cache: keyof typeof cachePolicy;
  run(ctx: OperationContext): Promise<unknown>;
}

const tripQuery = {
  type: enumParam(tripTypes, 'Restricts to walking trips or climbing objectives. Omitting it lists both.', {
    omitHint: 'omit the parameter to list both',
  }),
  region: regionParam("Case-insensitive substring match on the trip's region."),
  difficulty: enumParam(difficulties, 'Exact, case-insensitive match on the difficulty band.', {
    caseInsensitive: true,
  }),
  maxPriceInr: positiveIntegerParam(
    'Only trips priced at or below the amount, in INR. Trips with no published price are excluded when this filter is used.',
  ),
} satisfies QueryParameters;

const peakQuery = {
  openPeak: booleanParam('Filter on open-peak list membership.'),
  firstSixThousanderCandidate: booleanParam('Filter on the first-6,000 m filter.'),
  operatorOperated: booleanParam('Filter on whether the operator runs a guided expedition to the peak.'),
  maxAltitudeM: positiveIntegerParam('Only peaks at or below this summit altitude, metres.'),
} satisfies QueryParameters;

/**
 * The answer for an id an earlier release had: 301 to the id the same summit has now, or 410 with
 * when and why it went, where its last record is kept, and the record added in its place.
 */
function removedPeakError(removed: RemovedPeakId, catalogue: Catalogue): ApiError {
  const api = `${catalogue.siteUrl}/v1/peaks`;
  if (removed.movedTo) {
    const location = `${api}/${removed.movedTo}`;
    return new ApiError('peak_moved', {
      message: `${removed.name} has the id "${removed.movedTo}" since version ${removed.removedIn} of the dataset; "${removed.id}" was its id up to version ${removed.lastIn}.`,
      hint: `Its record is at ${location} (the Location header).`,
      headers: { Location: location },
    });
  }
  const instead = removed.addedInstead ? catalogue.peaks.find((p) => p.id === removed.addedInstead) : undefined;
  return new ApiError('peak_removed', {
    message: `${removed.name} (id "${removed.id}") was removed from the dataset in version ${removed.removedIn}. ${removed.reason} Its last record is in version ${removed.lastIn}: ${catalogue.siteUrl}${releaseFilePath(removed.lastIn, peakDataFiles.json.name)}.`,
    hint: `${instead ? `${instead.name} (id "${instead.id}") was added in its place: ${api}/${instead.id}. ` : ''}Every current id: ${api}.`,
  });
}

export const operations: Operation[] = [
  {
    operationId: 'getServiceIndex',
    tag: 'Service',
    path: '/',
    summary: 'Service index: every operation, machine-readable file, rate limit and licence.',
    description:
      'Start here. Lists every endpoint of the API with its absolute URL, the machine-readable files of the site, the rate-limit policy actually enforced and the licence terms of the peak dataset.',
    query: {},
    response: { name: 'ServiceIndex' },
    errors: [],
    cache: 'catalogue',
    // The contract gives invalid_parameter to the list operations only, so a query string here is ignored.
    run: async ({ deps }) => buildServiceIndex(deps.catalogue, operations),
  },
  {
    operationId: 'listTrips',
    tag: 'Trips',
    path: '/trips',
    summary: 'List published treks and expeditions, with optional filters.',
    description: 'Filters combine with AND. An empty result is a 200 with `count` 0. Trips are ordered by slug.',
    query: tripQuery,
    response: { name: 'TripList' },
    errors: ['invalid_parameter'],
    cache: 'catalogue',
    run: async ({ url, deps }) => {
      const q = parseQuery(url, tripQuery);
      const region = q.region?.toLowerCase();
      const data = deps.catalogue.trips
        .map((p) => p.trip)
        .filter((t) => q.type === undefined || t.type === q.type)
        .filter((t) => region === undefined || t.region.toLowerCase().includes(region))
        .filter((t) => q.difficulty === undefined || t.difficulty === q.difficulty)
        .filter((t) => q.maxPriceInr === undefined || (t.priceInr != null && t.priceInr <= q.maxPriceInr));
      return { object: 'list', count: data.length, data };
    },
  },
  {
    operationId: 'getTrip',
    tag: 'Trips',
    path: '/trips/{slug}',
    summary: 'One trip by slug.',
    description: 'The itinerary, gear list and FAQs are not in this payload; read them at `markdownUrl`.',
    query: {},
    pathParam: {
      name: 'slug',
      description: 'Trip slug. A slug no trip has, or one that breaks the pattern, answers 404 `trip_not_found`.',
      openapi: { type: 'string', pattern: slugPattern.source },
      notFound: 'trip_not_found',
      example: (c) => c.trips[0]?.trip.slug,
    },
    response: { name: 'TripEnvelope' },
    errors: ['trip_not_found'],
    cache: 'catalogue',
    run: async ({ pathParam, deps }) => {
      const page = tripBySlug(deps.catalogue, pathParam);
      if (!page) {
        throw new ApiError('trip_not_found', {
          message: `No trip has the slug ${quoted(pathParam) ?? 'given'}.`,
          hint: `List the published trips at ${deps.catalogue.siteUrl}/v1/trips and use a slug from there.`,
        });
      }
      return { object: 'trip', data: page.trip };
    },
  },
  {
    operationId: 'listDepartures',
    tag: 'Departures',
    path: '/departures',
    summary:
      'Departure dates currently on sale, read live from operational storage, with optional filters: the departure search.',
    description:
      'Only published departures, earliest start date first. Filters combine with AND: dates (`from`, `to`), the trip (`trip`, `type`, `difficulty`, `region`, `minDays`, `maxDays`), a group size (`minSeats`) and a budget per person (`maxPriceInr`). ' +
      `For example "${searchExample.question}" is \`${searchExample.query}\`. ` +
      'An empty result is a 200 with `count` 0. Cached for at most 60 seconds. The same search is the departures board (`/departures`), `departures.md` and `departures.ics`, with the same parameters.',
    query: searchParameters,
    ruleBreaking: searchRuleExamples,
    response: { name: 'DepartureList' },
    errors: ['invalid_parameter', 'departures_unavailable', 'departures_upstream_error'],
    cache: 'departures',
    run: async ({ url, deps }) => {
      const q = readSearch(url);
      if (!deps.departures) {
        throw new ApiError('departures_unavailable', {
          message: 'This deployment has no operational storage configured, so live departures cannot be read.',
          hint: `Read ${deps.catalogue.siteUrl}/departures.md or ask about dates through the trip page's enquiry form.`,
        });
      }
      let rows;
      try {
        await deps.departures.ready?.();
        rows = await deps.departures.listPublished({ tripSlug: q.trip });
      } catch (cause) {
        (deps.log ?? console.error)(
          `[departures] storage read failed: ${cause instanceof Error ? cause.message : String(cause)}`,
        );
        throw new ApiError('departures_upstream_error', {
          message: 'Operational storage could not be read just now.',
          hint: 'Retry in a minute; trips and peaks are unaffected.',
        });
      }
      const data = searchDepartures(
        rows.flatMap((row) => toDeparture(row, deps.catalogue) ?? []),
        q,
        deps.catalogue,
      );
      return { object: 'list', count: data.length, data };
    },
  },
  {
    operationId: 'listPeaks',
    tag: 'Peaks',
    path: '/peaks',
    summary: 'The open dataset of Indian Himalayan climbing peaks (CC-BY-4.0), with optional filters.',
    description:
      'Filters combine with AND. Cite `attribution` with a link back when you use the data. Peaks are ordered by id.',
    query: peakQuery,
    response: { name: 'PeakList' },
    errors: ['invalid_parameter'],
    cache: 'catalogue',
    run: async ({ url, deps }) => {
      const q = parseQuery(url, peakQuery);
      const data = deps.catalogue.peaks
        .map(toPeakResource)
        .filter((p) => q.openPeak === undefined || p.openPeak === q.openPeak)
        .filter(
          (p) =>
            q.firstSixThousanderCandidate === undefined ||
            p.firstSixThousanderCandidate === q.firstSixThousanderCandidate,
        )
        .filter((p) => q.operatorOperated === undefined || p.operatorOperated === q.operatorOperated)
        .filter((p) => q.maxAltitudeM === undefined || p.altitudeM <= q.maxAltitudeM);
      return {
        object: 'list',
        count: data.length,
        license: 'CC-BY-4.0',
        attribution: deps.catalogue.attribution,
        data,
      };
    },
  },
  {
    operationId: 'getPeak',
    tag: 'Peaks',
    path: '/peaks/{id}',
    summary: 'One peak of the dataset by id.',
    description:
      'Coordinates, first ascent and references are in the full dataset file `peak-data/peaks.json`. Ids stay: an id an earlier release had says where the peak went.',
    query: {},
    pathParam: {
      name: 'id',
      description:
        'Peak id. An id an earlier release had answers 410 `peak_removed` (or 301 `peak_moved` to the id the same peak has now); any other id no peak has, or one that breaks the pattern, answers 404 `peak_not_found`.',
      openapi: { type: 'string', pattern: slugPattern.source },
      notFound: 'peak_not_found',
      example: (c) => c.peaks[0]?.id,
    },
    response: { name: 'PeakEnvelope' },
    errors: ['peak_not_found', 'peak_removed', 'peak_moved'],
    cache: 'catalogue',
    run: async ({ pathParam, deps }) => {
      const record = deps.catalogue.peaks.find((p) => p.id === pathParam);
      if (!record) {
        const removed = deps.catalogue.site.dataset.removedIds?.find((r) => r.id === pathParam);
        if (removed) throw removedPeakError(removed, deps.catalogue);
        throw new ApiError('peak_not_found', {
          message: `No peak has the id ${quoted(pathParam) ?? 'given'}.`,
          hint: `List the dataset at ${deps.catalogue.siteUrl}/v1/peaks and use an id from there.`,
        });
      }
      return { object: 'peak', license: 'CC-BY-4.0', data: toPeakResource(record) };
    },
  },
];
