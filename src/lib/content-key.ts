/**
 * A key for what a build output is made of: a hash of its inputs as JSON and of a version of
 * the code that makes it. Used to find generated pictures in the picture cache and to tell
 * Astro which trip pages a rebuild can skip. The same inputs built by the same code give the
 * same JSON; inputs whose fields come in another order give another key, so the output is made
 * again: slower, never wrong.
 */
import { createHash } from 'node:crypto';
import type { Catalogue, TripPage } from '../../domain/catalogue/index.ts';

export function contentKey(inputs: unknown, version = ''): string {
  return createHash('sha256')
    .update(version)
    .update('\0')
    .update(JSON.stringify(inputs) ?? '')
    .digest('hex');
}

const pageKeys = new WeakMap<TripPage, string>();

/**
 * Everything a trip's own files (its page, its /v1 answer) are made of besides code: the trip,
 * the peak it climbs, the site settings and origin, and the dataset's terms. Astro skips the
 * file on a rebuild when this key and the page's code are those of the last build
 * (experimental.incrementalBuild in astro.config.mjs); a page that comes to read other records
 * (another trip, say) adds them here.
 */
export function tripPageKey(catalogue: Catalogue, page: TripPage): string {
  let key = pageKeys.get(page);
  if (key === undefined) {
    const peak = page.content.peak ? (catalogue.peaks.find((p) => p.id === page.content.peak) ?? null) : null;
    const { siteUrl, site, royalty, attribution, datasetUrl } = catalogue;
    key = contentKey({ page, peak, siteUrl, site, royalty, attribution, datasetUrl });
    pageKeys.set(page, key);
  }
  return key;
}
