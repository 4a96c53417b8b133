/**
 * The bytes of every file the peak dataset is published as, one function for all of them: the
 * pages at /peak-data/<file>, the same files at the current version's own address
 * (/peak-data/<version>/<file>), and `npm run peak-data -- archive`, which keeps them when the
 * version is raised, all write what this writes. JSON is indented, as every published JSON file.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { peakDataFiles, type PeakDataFile } from '../../domain/catalogue/peak-data-files.ts';
import type { DatasetRelease } from '../../domain/catalogue/releases.ts';
import { buildPeakDataset } from './peak-dataset.ts';
import { peakChangelogMarkdown } from './changelog.ts';
import { peakCitationCff } from './citation.ts';
import { peaksCsv, peaksCsvTypes } from './csv.ts';
import { peakDataPackage } from './data-package.ts';
import { peaksGeoJson } from './geojson.ts';

const json = (data: unknown) => `${JSON.stringify(data, null, 2)}\n`;

const writers: Record<
  keyof typeof peakDataFiles,
  (catalogue: Catalogue, releases: readonly DatasetRelease[]) => string
> = {
  json: (catalogue) => json(buildPeakDataset(catalogue)),
  geojson: (catalogue) => json(peaksGeoJson(catalogue)),
  csv: (catalogue) => peaksCsv(catalogue),
  csvTypes: () => peaksCsvTypes(),
  dataPackage: (catalogue, releases) => json(peakDataPackage(catalogue, releases)),
  citation: (catalogue) => peakCitationCff(catalogue),
  changelog: (catalogue, releases) => peakChangelogMarkdown(catalogue, releases),
};

/** One file of the dataset as published. */
export function peakDataFileBody(
  file: PeakDataFile,
  catalogue: Catalogue,
  releases: readonly DatasetRelease[],
): string {
  const key = (Object.keys(peakDataFiles) as (keyof typeof peakDataFiles)[]).find((k) => peakDataFiles[k] === file);
  if (!key) throw new Error(`${file.name} is not a file of the peak dataset (domain/catalogue/peak-data-files.ts)`);
  return writers[key](catalogue, releases);
}
