/**
 * The catalogue: trips, peaks and site settings as one validated, cross-linked value.
 * Built from the content collections by the site (src/lib/catalogue.ts) and handed to the
 * API handlers as a dependency.
 */
import type { PeakContent, PeakRecord, RoyaltySchedule } from '../../src/schemas/peak.ts';
import type { SiteSettings } from '../../src/schemas/site.ts';
import type { Trip, TripContent } from '../../src/schemas/trip.ts';
import { toPeakRecord } from './peaks.ts';

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

export function tripPath(type: Trip['type'], slug: string): string {
  return `/${tripSection[type]}/${slug}`;
}

function fileOf(entry: ContentEntry<unknown>, folder: string, ext: string): string {
  return entry.filePath ?? `content/${folder}/${entry.id}.${ext}`;
}

export function buildCatalogue(source: CatalogueSource, siteUrl: string): Catalogue {
  const origin = siteUrl.replace(/\/+$/, '');
  const problems: string[] = [];
  const tripIds = new Set(source.trips.map((t) => t.id));
  const peakIds = new Set(source.peaks.map((p) => p.id));

  const trips = [...source.trips]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((entry): TripPage => {
      const c = entry.data;
      if (c.peak && !peakIds.has(c.peak)) {
        problems.push(`${fileOf(entry, 'trips', 'md')}: field "peak" names "${c.peak}", but there is no content/peaks/${c.peak}.yaml`);
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

  const tripBySlug = new Map(trips.map((t) => [t.trip.slug, t]));
  const peaks = [...source.peaks]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((entry) => {
      const linked = entry.data.operatorTrip;
      let operatorUrl: string | null = null;
      if (linked) {
        const page = tripBySlug.get(linked);
        if (!page || !tripIds.has(linked)) {
          problems.push(`${fileOf(entry, 'peaks', 'yaml')}: field "operatorTrip" names "${linked}", but there is no content/trips/${linked}.md`);
        } else if (page.content.peak !== entry.id) {
          problems.push(`${fileOf(entry, 'peaks', 'yaml')}: field "operatorTrip" names "${linked}", but that trip climbs "${page.content.peak ?? 'no peak'}"; set the trip's "peak" to "${entry.id}" or fix this link`);
        } else {
          operatorUrl = page.trip.url;
        }
      }
      return toPeakRecord(entry.id, entry.data, source.royalty, operatorUrl);
    });

  for (const page of trips) {
    const peakId = page.content.peak;
    const peak = peakId ? source.peaks.find((p) => p.id === peakId) : undefined;
    const tripFile = `content/trips/${page.trip.slug}.md`;
    if (peak && page.trip.alpineGrade !== peak.data.technicalGrade) {
      problems.push(`${tripFile}: field "alpineGrade" is ${page.trip.alpineGrade}, but ${peak.id}'s technicalGrade is ${peak.data.technicalGrade}; the trip and the dataset must agree`);
    }
    if (peak && page.trip.summitAltitudeM !== peak.data.altitudeM) {
      problems.push(`${tripFile}: field "summitAltitudeM" is ${page.trip.summitAltitudeM}, but ${peak.id}'s altitudeM is ${peak.data.altitudeM}; the trip and the dataset must agree`);
    }
    if (peak && peak.data.operatorTrip !== page.trip.slug) {
      problems.push(`${fileOf(peak, 'peaks', 'yaml')}: field "operatorTrip" must be "${page.trip.slug}", because that expedition climbs this peak`);
    }
  }

  if (problems.length > 0) {
    throw new CatalogueError(`The content has ${problems.length} problem(s):\n- ${problems.join('\n- ')}`);
  }

  const canonical = source.site.siteUrl.replace(/\/+$/, '');
  const datasetUrl = `${canonical}/peak-data/`;
  const { dataset, operatorName } = source.site;
  return {
    siteUrl: origin,
    site: source.site,
    royalty: source.royalty,
    trips,
    peaks,
    attribution: `${dataset.name} v${dataset.version} by ${operatorName} (${canonical}), licensed CC-BY-4.0: ${datasetUrl}`,
    datasetUrl,
  };
}
