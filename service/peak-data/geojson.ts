/**
 * peak-data/peaks.geojson: the dataset as an RFC 7946 FeatureCollection. Each peak is a Feature
 * whose id is the dataset id, whose geometry is a Point at [longitude, latitude] (WGS84, the
 * order RFC 7946 fixes) or null where no source gives the summit's position, and whose
 * properties are the rest of the record. The altitude stays a property: RFC 7946's third
 * coordinate is a height above the ellipsoid, not the altitude above sea level the sources give.
 * The licence, attribution and the ids earlier releases had (removedIds, as in peaks.json) travel
 * with the file as foreign members of the collection.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import type { PeakRecord } from '../../domain/schemas/peak.ts';
import { publishedRemovedIds } from '../../domain/catalogue/removed-ids.ts';

type Point = { type: 'Point'; coordinates: [number, number] };

interface PeakFeature {
  type: 'Feature';
  id: string;
  geometry: Point | null;
  properties: Omit<PeakRecord, 'coordinates'>;
}

function peakFeature(peak: PeakRecord): PeakFeature {
  const { coordinates, ...properties } = peak;
  return {
    type: 'Feature',
    id: peak.id,
    geometry: coordinates ? { type: 'Point', coordinates: [coordinates.longitude, coordinates.latitude] } : null,
    properties,
  };
}

export function peaksGeoJson(catalogue: Catalogue) {
  const { dataset } = catalogue.site;
  return {
    type: 'FeatureCollection' as const,
    name: dataset.name,
    version: dataset.version,
    license: dataset.license,
    attribution: catalogue.attribution,
    removedIds: publishedRemovedIds(catalogue.site),
    features: catalogue.peaks.map(peakFeature),
  };
}
