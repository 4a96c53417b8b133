/**
 * peak-data/peaks.csv: one row per peak of the columns in columns.ts, written by csv-stringify as
 * RFC 4180 asks (comma, double quotes around cells that need them, CRLF), in UTF-8 with a header
 * row. Booleans are `true`/`false`, and an empty cell is a value the record does not have (the
 * Table Schema's missing value). Cells are written as they are: they come from the checked
 * content, and analysts need the values themselves.
 */
import { stringify } from 'csv-stringify/sync';
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { peakColumns } from './columns.ts';

export function peaksCsv(catalogue: Catalogue): string {
  const rows = catalogue.peaks.map((peak) => peakColumns.map((column) => column.value(peak)));
  return stringify(rows, {
    header: true,
    columns: peakColumns.map((c) => c.name),
    record_delimiter: 'windows',
    cast: { boolean: (value) => (value ? 'true' : 'false') },
  });
}
