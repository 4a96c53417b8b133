/**
 * Where summits are: the distance between two of them, and the pairs of peak records that put
 * different summits on (nearly) the same spot, the mark of coordinates copied from a neighbour
 * or from the massif as a whole.
 */

export interface Summit {
  id: string;
  coordinates: { latitude: number; longitude: number };
}

/**
 * Closest two records may place their summits. Records give coordinates to three decimals
 * (about 100 m); the closest distinct summits in the dataset stand more than a kilometre apart,
 * so under half a kilometre means one summit twice, not two summits.
 */
export const minimumSummitSeparationKm = 0.5;

/**
 * A record's summit position, when a source gives it (a record's `coordinates` is a position or
 * `{ unknown: why }`). Here rather than beside the peak schema, so that what reads records (the
 * catalogue, the live functions) does not build that schema.
 */
export function summitPosition<Known extends Summit['coordinates']>(
  coordinates: Known | { unknown: string },
): Known | undefined {
  return 'unknown' in coordinates ? undefined : coordinates;
}

const earthRadiusKm = 6371;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance in kilometres (haversine). */
export function distanceKm(a: Summit['coordinates'], b: Summit['coordinates']): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * earthRadiusKm * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Every pair of records whose summits are closer than the minimum separation. */
export function summitsTooClose(summits: readonly Summit[]): { a: Summit; b: Summit; km: number }[] {
  const pairs: { a: Summit; b: Summit; km: number }[] = [];
  summits.forEach((a, i) => {
    for (const b of summits.slice(i + 1)) {
      const km = distanceKm(a.coordinates, b.coordinates);
      if (km < minimumSummitSeparationKm) pairs.push({ a, b, km });
    }
  });
  return pairs;
}
