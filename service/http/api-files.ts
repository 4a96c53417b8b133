/**
 * Where the /v1 answers published at build time live (service/v1/static-answers.ts builds them).
 * Kept apart from the handlers, so the request rules can route to the files without carrying
 * the API's code.
 */
import { slugPattern } from '../../domain/slug.ts';

/** The published file of a decoded /v1 path (its segments after `/v1`), or null. */
export function staticAnswerFile(segments: readonly string[]): string | null {
  const [collection, id, ...rest] = segments;
  if (rest.length > 0) return null;
  if (collection === undefined) return '/v1/index.json';
  if (collection !== 'trips' && collection !== 'peaks') return null;
  if (id === undefined) return `/v1/${collection}.json`;
  return slugPattern.test(id) ? `/v1/${collection}/${id}.json` : null;
}
