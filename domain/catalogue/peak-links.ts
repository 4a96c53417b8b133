/**
 * Where the same peak is found elsewhere: its summit on OpenStreetMap's map, and its entries in
 * Wikidata, OpenStreetMap and GeoNames when a source has given their ids. Plain addresses: the
 * pages link them and fetch nothing from them (no map tiles, no scripts).
 */
import type { PeakRecord } from '../schemas/peak.ts';

/** Zoom 14 shows a summit with the ridges and glaciers around it. */
const summitZoom = 14;

/** OpenStreetMap's map centred on a position, with a marker on it. */
function openStreetMapUrl({ latitude, longitude }: { latitude: number; longitude: number }): string {
  return `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=${summitZoom}/${latitude}/${longitude}`;
}

export interface ElsewhereLink {
  /** What the link opens, as a link text. */
  label: string;
  url: string;
}

/** The peak's links elsewhere, in a fixed order: the map first, then the three datasets. */
export function peakElsewhere(
  peak: Pick<PeakRecord, 'coordinates' | 'wikidataId' | 'osmNodeId' | 'geonamesId'>,
): ElsewhereLink[] {
  return [
    ...(peak.coordinates ? [{ label: 'View on OpenStreetMap', url: openStreetMapUrl(peak.coordinates) }] : []),
    ...(peak.wikidataId
      ? [{ label: `Wikidata ${peak.wikidataId}`, url: `https://www.wikidata.org/wiki/${peak.wikidataId}` }]
      : []),
    ...(peak.osmNodeId
      ? [{ label: `OpenStreetMap node ${peak.osmNodeId}`, url: `https://www.openstreetmap.org/node/${peak.osmNodeId}` }]
      : []),
    ...(peak.geonamesId
      ? [{ label: `GeoNames ${peak.geonamesId}`, url: `https://www.geonames.org/${peak.geonamesId}` }]
      : []),
  ];
}
