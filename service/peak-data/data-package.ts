/**
 * peak-data/datapackage.json: the dataset as a Frictionless Data Package v2
 * (https://datapackage.org/standard/data-package/): name, title, version, the CC-BY-4.0 licence
 * with its address, the sources every record cites, the operator as contributor, and one
 * resource per published file with its media type. The CSV is a tabular resource whose Table
 * Schema is built from the same column list as the CSV itself (columns.ts). Paths are relative
 * to this file, which sits beside the others in peak-data/. `releases` lists every version with
 * the address of each of its files (/peak-data/<version>/<file>): the current one's, and each
 * earlier release's as it published them, with their size and SHA-256. The standard has no
 * property for a dataset's earlier versions, so this one is its own, as the standard allows.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import {
  canonicalOrigin,
  peakDataFileList,
  peakDataFiles,
  type PeakDataFile,
} from '../../domain/catalogue/peak-data-files.ts';
import type { DatasetRelease } from '../../domain/catalogue/releases.ts';
import { tableFields } from './columns.ts';

export const dataPackageProfile = 'https://datapackage.org/profiles/2.0/datapackage.json';

/** The Data Package's name for the dataset: lower case, digits, `-`, `.` and `_` as the standard allows. */
const dataPackageName = 'indian-himalayan-peaks';

const resourceNames: Record<keyof typeof peakDataFiles, string> = {
  json: 'peaks-json',
  geojson: 'peaks-geojson',
  csv: 'peaks',
  csvTypes: 'peaks-csvt',
  dataPackage: 'datapackage',
  citation: 'citation',
  changelog: 'changelog',
};

function resourceName(file: PeakDataFile): string {
  const key = (Object.keys(peakDataFiles) as (keyof typeof peakDataFiles)[]).find((k) => peakDataFiles[k] === file)!;
  return resourceNames[key];
}

/** Every reference the records and the royalty schedule cite, once each, in the order first cited. */
function sources(catalogue: Catalogue) {
  const seen = new Map<string, { title: string; path: string }>();
  const add = (ref: { title: string; url: string }) => {
    if (!seen.has(ref.url)) seen.set(ref.url, { title: ref.title, path: ref.url });
  };
  for (const peak of catalogue.peaks) peak.references.forEach(add);
  add(catalogue.royalty.source);
  add(catalogue.royalty.trekkingPeak.source);
  return [...seen.values()];
}

/** Every release with its files at their versioned addresses on the canonical site. */
function releaseList(catalogue: Catalogue, releases: readonly DatasetRelease[]) {
  const canonical = canonicalOrigin(catalogue.site);
  return releases.map((release) => ({
    version: release.version,
    date: release.date,
    ...(release.current ? { current: true } : {}),
    resources: release.files.map((file) => ({
      path: `${canonical}${file.path}`,
      mediatype: file.mediaType,
      ...(file.bytes !== undefined ? { bytes: file.bytes } : {}),
      ...(file.sha256 ? { hash: `sha256:${file.sha256}` } : {}),
    })),
  }));
}

export function peakDataPackage(catalogue: Catalogue, releases: readonly DatasetRelease[]) {
  const { dataset, operatorName, contactEmail } = catalogue.site;
  const canonical = canonicalOrigin(catalogue.site);
  const resource = (file: PeakDataFile) => ({
    name: resourceName(file),
    path: file.name,
    title: file === peakDataFiles.json ? `${dataset.name} (${file.format})` : `${dataset.name}: ${file.format}`,
    description: file.description,
    format: file.extension,
    mediatype: file.mediaType,
    encoding: 'utf-8',
  });
  return {
    $schema: dataPackageProfile,
    name: dataPackageName,
    id: catalogue.datasetUrl,
    title: dataset.name,
    description: `An open dataset of ${catalogue.peaks.length} climbing peaks in the Indian Himalaya: altitude, Alpine grade, IMF royalty band and fee, open-peak status, best months, typical duration, summit coordinates where a source gives them, first ascent, and the references of every fact. Where sources disagree, peaks.json and peaks.geojson list every account under contested. Attribution: ${catalogue.attribution}`,
    version: dataset.version,
    created: `${dataset.lastUpdated}T00:00:00Z`,
    homepage: catalogue.datasetUrl,
    keywords: ['Himalaya', 'India', 'mountaineering', 'peaks', 'open data'],
    licenses: [
      { name: dataset.license, path: dataset.licenseUrl, title: 'Creative Commons Attribution 4.0 International' },
    ],
    contributors: [
      { title: operatorName, path: `${canonical}/`, email: contactEmail, roles: ['creator', 'publisher'] },
    ],
    sources: sources(catalogue),
    resources: peakDataFileList
      .filter((file) => file !== peakDataFiles.dataPackage)
      .map((file) =>
        file === peakDataFiles.csv
          ? {
              ...resource(file),
              type: 'table',
              dialect: { header: true, delimiter: ',', lineTerminator: '\r\n', quoteChar: '"', doubleQuote: true },
              schema: { fields: tableFields(), primaryKey: ['id'], missingValues: [''] },
            }
          : resource(file),
      ),
    releases: releaseList(catalogue, releases),
  };
}
