/**
 * The catalogue: trips, peaks and site settings as one validated, cross-linked value.
 * Built from the content collections by the site (src/lib/catalogue.ts) and handed to the
 * API handlers as a dependency.
 */
import type { PeakContent, PeakRecord, RoyaltySchedule } from '../schemas/peak.ts';
import type { SiteSettings } from '../schemas/site.ts';
import type { Trip, TripContent } from '../schemas/trip.ts';
import { bySlug } from './by-slug.ts';
import { toPeakRecord } from './peaks.ts';
import { onlyOwnPages, operatorDomains } from './references.ts';
import { summaryGeographyProblems } from './summary-geography.ts';
import { minimumSummitSeparationKm, summitPosition, summitsTooClose } from '../summits.ts';

export interface ContentEntry<T> {
  id: string;
  data: T;
  body?: string | undefined;
  filePath?: string | undefined;
}

export interface CatalogueSource {
  trips: ContentEntry<TripContent>[];
  peaks: ContentEntry<PeakContent>[];
  site: SiteSettings;
  royalty: RoyaltySchedule;
}

export interface TripPage {
  trip: Trip;
  content: TripContent;
  /** The overview, Markdown. */
  body: string;
  /** Site path of the HTML page, e.g. `/treks/hampta-pass-trek`. */
  path: string;
}

export interface Catalogue {
  siteUrl: string;
  site: SiteSettings;
  royalty: RoyaltySchedule;
  trips: TripPage[];
  peaks: PeakRecord[];
  /** The attribution text the CC-BY-4.0 licence asks users of the dataset to cite. */
  attribution: string;
  /** Where the dataset lives on the canonical site. */
  datasetUrl: string;
}

/** A content mistake that only shows when records are read together (a link to nothing). */
export class CatalogueError extends Error {
  override name = 'CatalogueError';
}

export const tripSection = { trek: 'treks', expedition: 'expeditions' } as const;

/** The trip page with this slug, looked up in an index of the catalogue's trips (by-slug.ts). */
export function tripBySlug(catalogue: Pick<Catalogue, 'trips'>, slug: string | null | undefined): TripPage | undefined {
  return bySlug(catalogue.trips, (page) => page.trip.slug, slug);
}

function tripPath(type: Trip['type'], slug: string): string {
  return `/${tripSection[type]}/${slug}`;
}

function fileOf(entry: ContentEntry<unknown>, folder: string, ext: string): string {
  return entry.filePath ?? `content/${folder}/${entry.id}.${ext}`;
}

/** Records that cite only the operator's own pages: a fact needs a source other than ourselves. */
function independenceProblems(source: CatalogueSource, origin: string): string[] {
  const own = operatorDomains(source.site, origin);
  const owned = `only the operator's own pages (${own.join(', ')}); cite an independent source that states these facts (a journal, a mountaineering body, a government or park page, Wikipedia)`;
  return [
    ...source.peaks
      .filter((p) => onlyOwnPages(p.data.references, own))
      .map((p) => `${fileOf(p, 'peaks', 'yaml')}: field "references" lists ${owned}`),
    ...source.trips
      .filter((t) => onlyOwnPages(t.data.sources, own))
      .map((t) => `${fileOf(t, 'trips', 'md')}: field "sources" lists ${owned}`),
  ];
}

/** Two records on one spot: one of them has borrowed the other's (or the massif's) coordinates. */
function summitProblems(source: CatalogueSource): string[] {
  const located = source.peaks.flatMap((p) => {
    const position = summitPosition(p.data.coordinates);
    return position ? [{ id: p.id, coordinates: position }] : [];
  });
  return summitsTooClose(located).map(({ a, b, km }) => {
    const entry = source.peaks.find((p) => p.id === b.id)!;
    const distance =
      km === 0
        ? `the same coordinates (${a.coordinates.latitude}, ${a.coordinates.longitude})`
        : `coordinates only ${Math.round(km * 1000)} m from those`;
    return `${fileOf(entry, 'peaks', 'yaml')}: field "coordinates" gives ${distance} of ${a.id}; two summits must be at least ${minimumSummitSeparationKm * 1000} m apart, so give each summit its own coordinates from a source, or leave the field out when no source gives them`;
  });
}

/**
 * Ids of records whose files exist though they failed their own checks: `npm run check` and the
 * build report those files themselves, so a link to one is not also reported as a link to nothing.
 */
export interface FilesPresent {
  trips: readonly string[];
  peaks: readonly string[];
}

/** The catalogue, or every problem that keeps the records from reading together. */
export function buildCatalogue(source: CatalogueSource, siteUrl: string): Catalogue {
  const { catalogue, problems } = assembleCatalogue(source, siteUrl);
  if (problems.length > 0) {
    throw new CatalogueError(
      `The content has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n- ${problems.join('\n- ')}`,
    );
  }
  return catalogue;
}

/** The problems that show only when records are read together: links, agreement, sources, summits. */
export function catalogueProblems(source: CatalogueSource, siteUrl: string, present?: FilesPresent): string[] {
  return assembleCatalogue(source, siteUrl, present).problems;
}

function assembleCatalogue(
  source: CatalogueSource,
  siteUrl: string,
  present?: FilesPresent,
): { catalogue: Catalogue; problems: string[] } {
  const origin = siteUrl.replace(/\/+$/, '');
  const problems: string[] = [];
  const tripIds = new Set([...source.trips.map((t) => t.id), ...(present?.trips ?? [])]);
  const peakIds = new Set([...source.peaks.map((p) => p.id), ...(present?.peaks ?? [])]);

  const trips = [...source.trips]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((entry): TripPage => {
      const c = entry.data;
      if (c.peak && !peakIds.has(c.peak)) {
        problems.push(
          `${fileOf(entry, 'trips', 'md')}: field "peak" names "${c.peak}", but there is no content/peaks/${c.peak}.yaml`,
        );
      }
      const path = tripPath(c.type, entry.id);
      const trip: Trip = {
        slug: entry.id,
        name: c.name,
        type: c.type,
        region: c.region,
        difficulty: c.difficulty,
        ...(c.alpineGrade ? { alpineGrade: c.alpineGrade } : {}),
        summitAltitudeM: c.summitAltitudeM ?? null,
        ...(c.altitudeLabel ? { altitudeLabel: c.altitudeLabel } : {}),
        durationDays: c.durationDays ?? null,
        ...(c.durationLabel ? { durationLabel: c.durationLabel } : {}),
        season: c.season,
        ...(c.seasonWindow ? { seasonWindow: c.seasonWindow } : {}),
        ...(c.groupSize ? { groupSize: c.groupSize } : {}),
        ...(c.startEnd ? { startEnd: c.startEnd } : {}),
        priceInr: c.priceInr ?? null,
        ...(c.priceNote ? { priceNote: c.priceNote } : {}),
        description: c.description,
        ...(c.shortAnswer ? { shortAnswer: c.shortAnswer } : {}),
        ...(c.alternateNames ? { alternateNames: c.alternateNames } : {}),
        ...(c.tags ? { tags: c.tags } : {}),
        ...(c.lastUpdated ? { lastUpdated: c.lastUpdated } : {}),
        url: `${origin}${path}`,
        markdownUrl: `${origin}${path}.md`,
      };
      return { trip, content: c, body: entry.body ?? '', path };
    });

  const tripFiles = new Map(source.trips.map((entry) => [entry.id, fileOf(entry, 'trips', 'md')]));
  const peaks = [...source.peaks]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((entry) => {
      const linked = entry.data.operatorTrip;
      let operatorUrl: string | null = null;
      if (linked) {
        const page = tripBySlug({ trips }, linked);
        if (!page) {
          if (!tripIds.has(linked))
            problems.push(
              `${fileOf(entry, 'peaks', 'yaml')}: field "operatorTrip" names "${linked}", but there is no content/trips/${linked}.md`,
            );
        } else if (page.content.peak !== entry.id) {
          problems.push(
            `${fileOf(entry, 'peaks', 'yaml')}: field "operatorTrip" names "${linked}", but that trip climbs "${page.content.peak ?? 'no peak'}"; set the trip's "peak" to "${entry.id}" or fix this link`,
          );
        } else {
          operatorUrl = page.trip.url;
        }
      }
      return toPeakRecord(entry.id, entry.data, source.royalty, operatorUrl);
    });

  for (const page of trips) {
    const peakId = page.content.peak;
    const peak = peakId ? source.peaks.find((p) => p.id === peakId) : undefined;
    const tripFile = tripFiles.get(page.trip.slug)!;
    if (peak && page.trip.alpineGrade !== peak.data.technicalGrade) {
      problems.push(
        `${tripFile}: field "alpineGrade" is ${page.trip.alpineGrade}, but ${peak.id}'s technicalGrade is ${peak.data.technicalGrade}; the trip and the dataset must agree`,
      );
    }
    if (peak && page.trip.summitAltitudeM !== peak.data.altitudeM) {
      problems.push(
        `${tripFile}: field "summitAltitudeM" is ${page.trip.summitAltitudeM}, but ${peak.id}'s altitudeM is ${peak.data.altitudeM}; the trip and the dataset must agree`,
      );
    }
    if (peak && peak.data.operatorTrip !== page.trip.slug) {
      problems.push(
        `${fileOf(peak, 'peaks', 'yaml')}: field "operatorTrip" must be "${page.trip.slug}", because that expedition climbs this peak`,
      );
    }
  }

  problems.push(
    ...independenceProblems(source, origin),
    ...summitProblems(source),
    ...summaryGeographyProblems(source.peaks),
  );

  const canonical = source.site.siteUrl.replace(/\/+$/, '');
  const datasetUrl = `${canonical}/peak-data/`;
  const { dataset, operatorName } = source.site;
  const catalogue = {
    siteUrl: origin,
    site: source.site,
    royalty: source.royalty,
    trips,
    peaks,
    attribution: `${dataset.name} v${dataset.version} by ${operatorName} (${canonical}), licensed CC-BY-4.0: ${datasetUrl}`,
    datasetUrl,
  };
  return { catalogue, problems };
}
