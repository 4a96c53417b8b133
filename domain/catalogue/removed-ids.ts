/**
 * The ids earlier releases published that no record has now, as the dataset files and pages give
 * them: when and why each went, where its last record is kept, and where the peak went. The
 * editors list them in the settings (`dataset.removedIds`); /v1 answers them with 301 or 410.
 */
import { z } from 'astro/zod';
import type { SiteSettings } from '../schemas/site.ts';
import { canonicalOrigin, peakDataFiles, releaseFilePath } from './peak-data-files.ts';

export const publishedRemovedId = z.object({
  id: z.string().describe('The id an earlier release published.'),
  name: z.string().describe('The peak as that release named it.'),
  removedIn: z.string().describe('The first release without it.'),
  lastIn: z.string().describe('The last release with it.'),
  lastInUrl: z.url().describe("That release's peaks.json, which keeps its record."),
  reason: z.string().describe('Why the record went.'),
  movedTo: z.string().optional().describe('The id the same summit has now.'),
  addedInstead: z.string().optional().describe('The record added in its place (another summit).'),
});
export type PublishedRemovedId = z.infer<typeof publishedRemovedId>;

/** The removed ids with the address of each one's last record on the canonical site. */
export function publishedRemovedIds(site: SiteSettings): PublishedRemovedId[] {
  const canonical = canonicalOrigin(site);
  return (site.dataset.removedIds ?? []).map(({ id, name, removedIn, lastIn, reason, movedTo, addedInstead }) => ({
    id,
    name,
    removedIn,
    lastIn,
    lastInUrl: `${canonical}${releaseFilePath(lastIn, peakDataFiles.json.name)}`,
    reason,
    ...(movedTo ? { movedTo } : {}),
    ...(addedInstead ? { addedInstead } : {}),
  }));
}
