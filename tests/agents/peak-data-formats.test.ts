/**
 * The peak dataset in the formats its users open, read back by the tools they would use:
 * Placemark's GeoJSON checker, csv-parse, Frictionless's own Data Package library (which also
 * reads the CSV through its Table Schema, casting every cell and checking every constraint), a
 * YAML parser and citation.js for CITATION.cff. Each format must say what peaks.json says, for
 * the fixture and the real content alike.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getIssues } from '@placemarkio/check-geojson';
import { Cite } from '@citation-js/core';
import '@citation-js/plugin-cff';
import { parse } from 'csv-parse/sync';
import { Package } from 'datapackage';
import { load } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { peakDataFileList, peakDataFiles } from '../../domain/catalogue/peak-data-files.ts';
import { peakElsewhere } from '../../domain/catalogue/peak-links.ts';
import { changeKinds } from '../../domain/schemas/site.ts';
import type { PeakRecord } from '../../domain/schemas/peak.ts';
import { buildPeakDataset } from '../../service/agents/peak-dataset.ts';
import { peakChangelogMarkdown } from '../../service/peak-data/changelog.ts';
import { peakCitationCff } from '../../service/peak-data/citation.ts';
import { peaksCsv } from '../../service/peak-data/csv.ts';
import { dataPackageProfile, peakDataPackage } from '../../service/peak-data/data-package.ts';
import { peaksGeoJson } from '../../service/peak-data/geojson.ts';
import { loadCatalogue, realContent } from '../helpers/content.ts';

const catalogues = {
  fixture: loadCatalogue(undefined, 'https://example.test'),
  real: loadCatalogue(realContent, 'https://example.test'),
};

const scratch: string[] = [];
afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A record's value for a CSV column, looked up by the column's name in the record itself. */
function recordValue(peak: PeakRecord, column: string): unknown {
  const ascent = peak.firstAscent === 'unknown' ? undefined : peak.firstAscent;
  const nested: Record<string, unknown> = {
    latitude: peak.coordinates?.latitude,
    longitude: peak.coordinates?.longitude,
    coordinatesSource: peak.coordinatesSource?.url,
    firstAscentYear: ascent?.year,
    firstAscentParty: ascent?.party,
    firstAscentEarliestDocumented: ascent?.earliestDocumented,
  };
  if (column in nested) return nested[column];
  expect(column in peak || peakColumnsOptional.has(column), `column ${column} is not a field of the record`).toBe(true);
  const value = (peak as unknown as Record<string, unknown>)[column];
  expect(
    value === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof value),
    `${column} is not single-valued`,
  ).toBe(true);
  return value;
}

/** Optional single-valued fields of the record, absent from records that do not have them. */
const peakColumnsOptional = new Set([
  'imfBand',
  'imfRoyaltyUsdPartyOf2',
  'typicalDurationDays',
  'operatorUrl',
  'wikidataId',
  'osmNodeId',
  'geonamesId',
  'firstSixThousanderCandidate',
  'operatorOperated',
]);

/** A value as the CSV writes it: empty when the record has none. */
const asCell = (value: unknown) =>
  value === undefined || value === null ? '' : `${value as string | number | boolean}`;

describe.each(Object.entries(catalogues))('the peak dataset formats from the %s content', (_, catalogue) => {
  const json = buildPeakDataset(catalogue);

  it("peaks.geojson is an RFC 7946 FeatureCollection Placemark's checker accepts, each summit at [longitude, latitude], null where unknown", () => {
    const geojson = peaksGeoJson(catalogue);
    expect(getIssues(JSON.stringify(geojson))).toEqual([]);
    expect(geojson.features).toHaveLength(json.peaks.length);
    for (const peak of json.peaks) {
      const feature = geojson.features.find((f) => f.id === peak.id)!;
      const { coordinates, ...rest } = peak;
      expect(feature.properties).toEqual(rest);
      if (coordinates)
        expect(feature.geometry).toEqual({ type: 'Point', coordinates: [coordinates.longitude, coordinates.latitude] });
      else expect(feature.geometry).toBeNull();
    }
    expect(geojson).toMatchObject({
      license: 'CC-BY-4.0',
      attribution: catalogue.attribution,
      version: catalogue.site.dataset.version,
    });
  });

  it('peaks.csv is RFC 4180 that csv-parse reads strictly, and every row equals its record in peaks.json', () => {
    const text = peaksCsv(catalogue);
    expect(text.endsWith('\r\n')).toBe(true);
    const [header, ...rows]: string[][] = parse(text, {
      relax_column_count: false,
      record_delimiter: '\r\n',
      bom: false,
    });
    expect(rows).toHaveLength(json.peaks.length);
    expect(new Set(header).size).toBe(header!.length);
    rows.forEach((row, i) => {
      const peak = json.peaks[i]!;
      expect(Object.fromEntries(header!.map((name, j) => [name, row[j]]))).toEqual(
        Object.fromEntries(header!.map((name) => [name, asCell(recordValue(peak, name))])),
      );
    });
    // Every single-valued field of a record is a column (firstAscent's `unknown` is the firstAscent* columns left empty).
    for (const peak of json.peaks) {
      for (const [field, value] of Object.entries(peak)) {
        if (field !== 'firstAscent' && (value === null || typeof value !== 'object'))
          expect(header, field).toContain(field);
      }
    }
  });

  it("datapackage.json is a valid Data Package to Frictionless's library, its Table Schema is the CSV's header, and the CSV reads through it", async () => {
    const descriptor = peakDataPackage(catalogue);
    expect(descriptor.$schema).toBe(dataPackageProfile);
    expect(descriptor).toMatchObject({ version: catalogue.site.dataset.version, title: catalogue.site.dataset.name });
    expect(descriptor.licenses).toEqual([
      expect.objectContaining({ name: 'CC-BY-4.0', path: catalogue.site.dataset.licenseUrl }),
    ]);
    expect(descriptor.contributors[0]).toMatchObject({
      title: catalogue.site.operatorName,
      roles: expect.arrayContaining(['publisher']),
    });
    const cited = new Set(json.peaks.flatMap((p) => p.references.map((r) => r.url)));
    for (const url of cited) expect(descriptor.sources.map((s) => s.path)).toContain(url);
    // One resource per file beside it, each with the media type the file is served with.
    expect(descriptor.resources.map((r) => r.path).sort()).toEqual(
      peakDataFileList
        .filter((f) => f !== peakDataFiles.dataPackage)
        .map((f) => f.name)
        .sort(),
    );
    for (const resource of descriptor.resources)
      expect(resource.mediatype).toBe(peakDataFileList.find((f) => f.name === resource.path)!.mediaType);

    const csv = descriptor.resources.find((r) => r.path === peakDataFiles.csv.name)!;
    const [header]: string[][] = parse(peaksCsv(catalogue), { to_line: 1 });
    expect('schema' in csv && csv.schema.fields.map((f) => f.name)).toEqual(header);

    const dir = mkdtempSync(path.join(tmpdir(), 'peak-data-package-'));
    scratch.push(dir);
    writeFileSync(path.join(dir, 'datapackage.json'), JSON.stringify(descriptor));
    writeFileSync(path.join(dir, 'peaks.csv'), peaksCsv(catalogue));
    const pkg = await Package.load(path.join(dir, 'datapackage.json'));
    expect(pkg.errors.map(String)).toEqual([]);
    expect(pkg.valid).toBe(true);
    const table = pkg.getResource(csv.name);
    expect(table.tabular).toBe(true);
    // cast: every cell to its field's type, with every constraint (required, unique, enum, pattern, bounds) checked.
    const read = (await table.read({ keyed: true, cast: true })) as Record<string, unknown>[];
    expect(read).toHaveLength(json.peaks.length);
    read.forEach((row, i) => {
      const peak = json.peaks[i]!;
      expect(row.id).toBe(peak.id);
      expect(row.altitudeM).toBe(peak.altitudeM);
      expect(row.openPeak).toBe(peak.openPeak);
      expect(row.latitude === null ? null : Number(row.latitude)).toBe(peak.coordinates?.latitude ?? null);
    });
  });

  it('CITATION.cff parses as YAML with the keys CFF 1.2.0 requires, and citation.js reads it as a citation of this version', async () => {
    const text = peakCitationCff(catalogue);
    const cff = load(text) as Record<string, unknown>;
    // Required by the format: cff-version, message, title, authors (each a person or an entity with a name).
    expect(cff['cff-version']).toBe('1.2.0');
    expect(typeof cff.message).toBe('string');
    expect(cff.title).toBe(catalogue.site.dataset.name);
    expect(cff.authors).toEqual([expect.objectContaining({ name: catalogue.site.operatorName })]);
    expect(cff).toMatchObject({
      type: 'dataset',
      version: catalogue.site.dataset.version,
      'date-released': catalogue.site.dataset.lastUpdated,
      license: 'CC-BY-4.0',
      url: catalogue.datasetUrl,
    });
    const [citation] = (await Cite.async(text)).data as {
      title: string;
      version: string;
      issued: { 'date-parts': number[][] };
      author: { literal: string }[];
    }[];
    expect(citation).toMatchObject({
      title: catalogue.site.dataset.name,
      version: catalogue.site.dataset.version,
      author: [{ literal: catalogue.site.operatorName }],
    });
    expect(citation!.issued['date-parts'][0]!.join('-')).toBe(
      catalogue.site.dataset.lastUpdated.split('-').map(Number).join('-'),
    );
  });

  it("CHANGELOG.md is a Keep a Changelog file whose newest release is the dataset's version and date", () => {
    const text = peakChangelogMarkdown(catalogue);
    const releases = [...text.matchAll(/^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$/gm)].map(
      (m) => `${m[1]} ${m[2]}`,
    );
    expect(releases).toEqual(catalogue.site.dataset.changelog.map((r) => `${r.version} ${r.date}`));
    expect(releases[0]).toBe(`${catalogue.site.dataset.version} ${catalogue.site.dataset.lastUpdated}`);
    expect(text).toContain('https://keepachangelog.com/en/1.1.0/');
    for (const heading of text.match(/^### .+$/gm) ?? [])
      expect(changeKinds.map((k) => `### ${k[0]!.toUpperCase()}${k.slice(1)}`)).toContain(heading);
  });
});

describe('the real dataset', () => {
  const catalogue = catalogues.real;
  it('is version 2.1.0, a minor release after 2.0.0 whose attribution and service-index licence name it', () => {
    expect(catalogue.site.dataset.changelog.map((r) => r.version).slice(0, 2)).toEqual(['2.1.0', '2.0.0']);
    expect(catalogue.attribution).toContain(`v${catalogue.site.dataset.version}`);
  });

  it('links every summit with a position to OpenStreetMap at its coordinates and keeps the seven unknown positions unknown', () => {
    const unknown = catalogue.peaks
      .filter((p) => !p.coordinates)
      .map((p) => p.id)
      .sort();
    expect(unknown).toEqual([
      'black-peak',
      'chau-chau-kang-nilda',
      'dzo-jongo',
      'hanuman-tibba',
      'kang-yatse-ii',
      'rudugaira',
      'yunam',
    ]);
    for (const peak of catalogue.peaks.filter((p) => p.coordinates)) {
      const [map] = peakElsewhere(peak);
      expect(map?.label).toBe('View on OpenStreetMap');
      const url = new URL(map!.url);
      expect([url.searchParams.get('mlat'), url.searchParams.get('mlon')]).toEqual([
        String(peak.coordinates!.latitude),
        String(peak.coordinates!.longitude),
      ]);
    }
    for (const peak of catalogue.peaks.filter((p) => !p.coordinates))
      expect(
        peakElsewhere(peak).some((l) => l.label === 'View on OpenStreetMap'),
        peak.id,
      ).toBe(false);
  });
});
