/**
 * peak-data/peaks.csv: one row per peak of the columns in columns.ts, written by csv-stringify as
 * RFC 4180 asks (comma, double quotes around cells that need them, CRLF), in UTF-8 with a header
 * row. Booleans are `true` or `false` in every row; any other empty cell is a value the record
 * does not have (the Table Schema's missing value). Numbers are written as numbers. A text cell
 * a spreadsheet would run as a formula is written behind a single quote, by the rule of every CSV
 * the site writes (domain/csv-cells.ts); the content check keeps such text out of the records, so
 * a row says what peaks.json says.
 *
 * peak-data/peaks.csvt: the same columns' types for GDAL (and QGIS, which reads through it): a
 * `.csvt` beside a CSV of the same name is one line of quoted types, which the CSV driver reads
 * instead of taking every column as text.
 */
import { stringify } from 'csv-stringify/sync';
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { neutralisedCell } from '../../domain/csv-cells.ts';
import { gdalType, peakColumns } from './columns.ts';

export function peaksCsv(catalogue: Catalogue): string {
  const rows = catalogue.peaks.map((peak) => peakColumns.map((column) => column.value(peak)));
  return stringify(rows, {
    header: true,
    columns: peakColumns.map((c) => c.name),
    record_delimiter: 'windows',
    cast: { boolean: (value) => (value ? 'true' : 'false'), string: neutralisedCell },
  });
}

export function peaksCsvTypes(): string {
  return `${peakColumns.map((column) => `"${gdalType(column)}"`).join(',')}\r\n`;
}
