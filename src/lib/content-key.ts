/**
 * A key for what a build output is made of: a hash of its inputs as stable JSON (object keys
 * sorted) and of a version of the code that makes it. Used to find generated pictures in the
 * picture cache and to tell Astro which trip pages a rebuild can skip.
 */
import { createHash } from 'node:crypto';
import type { Catalogue, TripPage } from '../../domain/catalogue/index.ts';

function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

export function contentKey(inputs: unknown, version = ''): string {
  return createHash('sha256').update(version).update('\0').update(canonical(inputs)).digest('hex');
}

/**
 * Everything a trip's own files (its page, its /v1 answer) are made of besides code: the trip,
 * the peak it climbs, the site settings and origin, and the dataset's terms. Astro skips the
 * file on a rebuild when this key and the page's code are those of the last build
 * (experimental.incrementalBuild in astro.config.mjs); a page that comes to read other records
 * (another trip, say) adds them here.
 */
export function tripPageKey(catalogue: Catalogue, page: TripPage): string {
  const peak = page.content.peak ? (catalogue.peaks.find((p) => p.id === page.content.peak) ?? null) : null;
  const { siteUrl, site, royalty, attribution, datasetUrl } = catalogue;
  return contentKey({ page, peak, siteUrl, site, royalty, attribution, datasetUrl });
}
