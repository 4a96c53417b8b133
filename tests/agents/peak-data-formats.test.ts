/**
 * The peak dataset in the formats its users open, read back by the tools they would use:
 * Placemark's GeoJSON checker, csv-parse, Frictionless's own Data Package library (which also
 * reads the CSV through its Table Schema, casting every cell and checking every constraint), a
 * YAML parser and citation.js for CITATION.cff. Each format must say what peaks.json says, for
 * the fixture and the real content alike. (GDAL and pandas read the served files in
 * tests/agents/peak-data-tools.test.ts.)
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
import { buildPeakDataset } from '../../service/peak-data/peak-dataset.ts';
import { peakChangelogMarkdown } from '../../service/peak-data/changelog.ts';
import { peakCitationCff } from '../../service/peak-data/citation.ts';
import { gdalType, peakColumns } from '../../service/peak-data/columns.ts';
import { peaksCsv, peaksCsvTypes } from '../../service/peak-data/csv.ts';
import { dataPackageProfile, peakDataPackage } from '../../service/peak-data/data-package.ts';
import { peaksGeoJson } from '../../service/peak-data/geojson.ts';
import { fixtureContent, loadCatalogue, loadReleases, realContent } from '../helpers/content.ts';

const catalogues = {
  fixture: loadCatalogue(undefined, 'https://example.test'),
  real: loadCatalogue(realContent, 'https://example.test'),
};
const contentOf = { fixture: fixtureContent, real: realContent };

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
    firstAscentEarliestDocumented: ascent?.earliestDocumented ?? false,
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
  'coordinatesUnknownReason',
]);

/** A value as the CSV writes it: empty when the record has none. */
const asCell = (value: unknown) =>
  value === undefined || value === null ? '' : `${value as string | number | boolean}`;

describe.each(Object.entries(catalogues))('the peak dataset formats from the %s content', (name, catalogue) => {
  const json = buildPeakDataset(catalogue);
  const releases = loadReleases(catalogue, contentOf[name as keyof typeof contentOf]);

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
    const descriptor = peakDataPackage(catalogue, releases);
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

  it("CHANGELOG.md is a Keep a Changelog file whose newest release is the dataset's version and date, each release linking its files", () => {
    const text = peakChangelogMarkdown(catalogue, releases);
    const headings = [...text.matchAll(/^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$/gm)].map(
      (m) => `${m[1]} ${m[2]}`,
    );
    expect(headings).toEqual(catalogue.site.dataset.changelog.map((r) => `${r.version} ${r.date}`));
    expect(headings[0]).toBe(`${catalogue.site.dataset.version} ${catalogue.site.dataset.lastUpdated}`);
    expect(text).toContain('https://keepachangelog.com/en/1.1.0/');
    for (const heading of text.match(/^### .+$/gm) ?? [])
      expect(changeKinds.map((k) => `### ${k[0]!.toUpperCase()}${k.slice(1)}`)).toContain(heading);
    // Every release links each of its files at its own address, and its heading its peaks.json.
    const canonical = catalogue.site.siteUrl;
    for (const release of releases) {
      expect(release.files.length, release.version).toBeGreaterThan(0);
      for (const file of release.files)
        expect(text).toContain(`[${file.name}](${canonical}/peak-data/${release.version}/${file.name})`);
      expect(text).toContain(`[${release.version}]: ${canonical}/peak-data/${release.version}/peaks.json`);
    }
  });

  it('datapackage.json lists every release with its files at their versioned addresses, and each kept file with its size and SHA-256', () => {
    const listed = peakDataPackage(catalogue, releases).releases;
    expect(listed.map((r) => r.version)).toEqual(catalogue.site.dataset.changelog.map((r) => r.version));
    const [current, ...earlier] = listed;
    expect(current).toMatchObject({ version: catalogue.site.dataset.version, current: true });
    expect(current!.resources.map((r) => r.path)).toEqual(
      peakDataFileList.map((f) => `${catalogue.site.siteUrl}/peak-data/${catalogue.site.dataset.version}/${f.name}`),
    );
    const dir = contentOf[name as keyof typeof contentOf];
    for (const release of earlier) {
      expect(release.resources.length, release.version).toBeGreaterThan(0);
      for (const resource of release.resources) {
        const file = path.join(dir, 'peak-data', release.version, path.basename(resource.path));
        const bytes = readFileSync(file);
        expect(resource).toMatchObject({
          bytes: bytes.length,
          hash: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
        });
      }
    }
  });

  it('peaks.csv writes every yes-or-no column as true or false, never empty, as its Table Schema says', () => {
    const [header, ...rows]: string[][] = parse(peaksCsv(catalogue), { record_delimiter: '\r\n' });
    const fields = peakDataPackage(catalogue, releases).resources.find((r) => r.path === peakDataFiles.csv.name)!;
    const booleans = ('schema' in fields ? fields.schema.fields : []).filter((f) => f.type === 'boolean');
    expect(booleans.map((f) => f.name)).toEqual(
      expect.arrayContaining([
        'openPeak',
        'firstSixThousanderCandidate',
        'operatorOperated',
        'firstAscentEarliestDocumented',
      ]),
    );
    for (const field of booleans) {
      expect(field).toMatchObject({ trueValues: ['true'], falseValues: ['false'], constraints: { required: true } });
      const column = header!.indexOf(field.name);
      for (const row of rows) expect(['true', 'false'], `${row[0]} ${field.name}`).toContain(row[column]);
    }
  });

  it("peaks.csvt gives GDAL one type per column of peaks.csv, in the header's order", () => {
    const [header]: string[][] = parse(peaksCsv(catalogue), { to_line: 1 });
    const text = peaksCsvTypes();
    expect(text.endsWith('\r\n')).toBe(true);
    const [types]: string[][] = parse(text);
    expect(types).toHaveLength(header!.length);
    expect(Object.fromEntries(header!.map((column, i) => [column, types![i]]))).toMatchObject({
      id: 'String',
      altitudeM: 'Integer',
      latitude: 'Real',
      openPeak: 'Integer(Boolean)',
      osmNodeId: 'Integer64',
      lastVerified: 'Date',
    });
    expect(types).toEqual(peakColumns.map(gdalType));
  });
});

describe('a text cell a spreadsheet would run', () => {
  const catalogue = catalogues.fixture;
  const [first, second] = catalogue.peaks;
  // Records no content check would pass: the writer neutralises such a cell whatever reaches it.
  const tampered = {
    ...catalogue,
    peaks: [
      { ...first!, summary: '=HYPERLINK("https://evil.example","x")', range: '@SUM(A1:A9)', name: '-1+2' },
      { ...second!, summary: '+91 98765 43210', coordinates: { latitude: -12.5, longitude: 79.5 }, region: '-12' },
    ],
  };
  const rows = (): Record<string, string>[] => parse(peaksCsv(tampered), { columns: true, record_delimiter: '\r\n' });

  it('is written behind a single quote in peaks.csv, as the departures export writes it', () => {
    const [a, b] = rows();
    expect(a).toMatchObject({
      summary: `'=HYPERLINK("https://evil.example","x")`,
      range: "'@SUM(A1:A9)",
      name: "'-1+2",
    });
    expect(b).toMatchObject({ summary: "'+91 98765 43210" });
  });

  it('leaves numbers as numbers: a negative number written as a number, or as text that is only a number', () => {
    const [, b] = rows();
    expect(b).toMatchObject({ latitude: '-12.5', region: '-12' });
  });
});

describe('the real dataset', () => {
  const catalogue = catalogues.real;
  it('is version 2.2.0, a minor release after 2.1.0 and 2.0.0 whose attribution names it', () => {
    expect(catalogue.site.dataset.changelog.map((r) => r.version)).toEqual(['2.2.0', '2.1.0', '2.0.0']);
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
    for (const peak of catalogue.peaks.filter((p) => !p.coordinates)) {
      expect(
        peakElsewhere(peak).some((l) => l.label === 'View on OpenStreetMap'),
        peak.id,
      ).toBe(false);
      // Each says why, in the files as on the page.
      expect(peak.coordinatesUnknownReason?.length ?? 0, peak.id).toBeGreaterThanOrEqual(20);
    }
    for (const peak of catalogue.peaks.filter((p) => p.coordinates))
      expect(peak.coordinatesUnknownReason, peak.id).toBeUndefined();
  });

  it('names the OpenStreetMap node of eight summits, each from a cited source', () => {
    const nodes = Object.fromEntries(catalogue.peaks.filter((p) => p.osmNodeId).map((p) => [p.id, p.osmNodeId]));
    expect(nodes).toEqual({
      'chamser-kangri': 1659348370,
      'deo-tibba': 806307629,
      indrasan: 4094234994,
      'kang-yatse-i': 551425652,
      kun: 4544784597,
      menthosa: 7061438821,
      nun: 4544767046,
      'stok-kangri': 493502723,
    });
    for (const peak of catalogue.peaks.filter((p) => p.osmNodeId))
      expect(
        peak.references.map((r) => r.url),
        peak.id,
      ).toContain(peak.osmNodeIdSource?.url);
  });

  it('says where the ids 2.1.0 removed went, and where their last records are kept', () => {
    const { removedIds } = buildPeakDataset(catalogue);
    expect(removedIds).toEqual([
      expect.objectContaining({
        id: 'frey-peak',
        removedIn: '2.1.0',
        lastIn: '2.0.0',
        lastInUrl: 'https://theverticaltribe.com/peak-data/2.0.0/peaks.json',
        addedInstead: 'rathong',
      }),
      expect.objectContaining({ id: 'mentok-kangri-ii', lastIn: '2.0.0', addedInstead: 'chamser-kangri' }),
    ]);
    expect(peaksGeoJson(catalogue).removedIds).toEqual(removedIds);
    const kept = JSON.parse(readFileSync(path.join(realContent, 'peak-data', '2.0.0', 'peaks.json'), 'utf8')) as {
      version: string;
      peaks: { id: string }[];
    };
    expect(kept.version).toBe('2.0.0');
    expect(kept.peaks.map((p) => p.id)).toEqual(expect.arrayContaining(['frey-peak', 'mentok-kangri-ii']));
  });
});
