/**
 * The files the open peak dataset is published as, one list: the site's list of published files
 * (service/site-files.ts), the Data Package's resources, the dataset page's downloads and the
 * schema.org Dataset's distribution all read it, so a format is added in one place.
 */

export interface PeakDataFile {
  /** Path under the site origin. */
  path: string;
  /** The file's name in `peak-data/`, which the Data Package's resources use as their path. */
  name: string;
  /** The format as people name it, for a download link. */
  format: string;
  mediaType: string;
  /** schema.org encodingFormat and the Data Package's `format`. */
  extension: string;
  description: string;
}

export const peakDataDir = '/peak-data';

/** The canonical site's origin, without a trailing slash: the dataset's files name their addresses on it. */
export function canonicalOrigin(site: { siteUrl: string }): string {
  return site.siteUrl.replace(/\/+$/, '');
}

/** Where a release's file is published: every version at its own address (domain/catalogue/releases.ts). */
export function releaseFilePath(version: string, name: string): string {
  return `${peakDataDir}/${version}/${name}`;
}

function file(name: string, format: string, mediaType: string, description: string): PeakDataFile {
  return {
    path: `${peakDataDir}/${name}`,
    name,
    format,
    mediaType,
    extension: name.slice(name.lastIndexOf('.') + 1).toLowerCase(),
    description,
  };
}

export const peakDataFiles = {
  json: file(
    'peaks.json',
    'JSON',
    'application/json',
    'The full peak dataset (CC-BY-4.0): every peak with coordinates, first ascent, contested facts and references, and the royalty schedule.',
  ),
  geojson: file(
    'peaks.geojson',
    'GeoJSON',
    'application/geo+json',
    'The peaks as an RFC 7946 GeoJSON FeatureCollection for GIS tools: one Point per summit ([longitude, latitude], WGS84), geometry null where no source gives the position.',
  ),
  csv: file(
    'peaks.csv',
    'CSV',
    'text/csv; charset=utf-8',
    "The peaks as one RFC 4180 CSV table (UTF-8, header row) of the record's single-valued fields, for spreadsheets, R and pandas.",
  ),
  csvTypes: file(
    'peaks.csvt',
    'GDAL column types',
    'text/csv; charset=utf-8',
    'The column types of peaks.csv for GDAL and QGIS (a .csvt file): kept beside peaks.csv, it makes them read numbers as numbers, yes-or-no columns as booleans and lastVerified as a date.',
  ),
  dataPackage: file(
    'datapackage.json',
    'Data Package',
    'application/json',
    'Frictionless Data Package (v2) of the dataset: licence, sources, contributors, and every file with its media type; the CSV described by a Table Schema.',
  ),
  citation: file(
    'CITATION.cff',
    'CITATION.cff',
    'application/yaml',
    'How to cite the dataset, in the Citation File Format 1.2.0: title, version, release date, licence, author and address.',
  ),
  changelog: file(
    'CHANGELOG.md',
    'Changelog',
    'text/markdown; charset=utf-8',
    'What changed in each version of the dataset (Keep a Changelog), with the date of every release.',
  ),
} as const;

/** In the order they are offered: the data first, then what describes it. */
export const peakDataFileList: readonly PeakDataFile[] = [
  peakDataFiles.json,
  peakDataFiles.geojson,
  peakDataFiles.csv,
  peakDataFiles.csvTypes,
  peakDataFiles.dataPackage,
  peakDataFiles.citation,
  peakDataFiles.changelog,
];
