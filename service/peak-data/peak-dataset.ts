/**
 * peak-data/peaks.json: the open peak dataset as one file, with its version, licence,
 * attribution and the royalty schedule its fee fields come from. Built from the same catalogue
 * value as /v1/peaks, so the file and the API carry the same derived fields.
 */
import { z } from 'astro/zod';
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { peakRecord, royaltySchedule } from '../../domain/schemas/peak.ts';
import { publishedRemovedId, publishedRemovedIds } from '../../domain/catalogue/removed-ids.ts';

export const peakDatasetFile = z.object({
  name: z.string(),
  version: z.string().regex(/^\d+\.\d+\.\d+$/),
  license: z.literal('CC-BY-4.0'),
  licenseUrl: z.url(),
  attribution: z.string(),
  lastUpdated: z.iso.date(),
  publisher: z.object({ name: z.string(), url: z.url() }),
  url: z.url().describe('The dataset page on the canonical site.'),
  contact: z.email(),
  royaltySchedule: royaltySchedule.describe(
    'The schedule imfBand and imfRoyaltyUsdPartyOf2 are derived from, with its source.',
  ),
  count: z.number().int(),
  peaks: z.array(peakRecord),
  removedIds: z
    .array(publishedRemovedId)
    .describe('Ids earlier releases published that no record has now: when and why each went, and where.'),
});
export type PeakDatasetFile = z.infer<typeof peakDatasetFile>;

export function buildPeakDataset(catalogue: Catalogue): PeakDatasetFile {
  const { dataset, operatorName, siteUrl, contactEmail } = catalogue.site;
  return {
    name: dataset.name,
    version: dataset.version,
    license: dataset.license,
    licenseUrl: dataset.licenseUrl,
    attribution: catalogue.attribution,
    lastUpdated: dataset.lastUpdated,
    publisher: { name: operatorName, url: siteUrl },
    url: catalogue.datasetUrl,
    contact: contactEmail,
    royaltySchedule: catalogue.royalty,
    count: catalogue.peaks.length,
    peaks: catalogue.peaks,
    removedIds: publishedRemovedIds(catalogue.site),
  };
}
