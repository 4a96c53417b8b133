/**
 * How to read peaks.csv with the tools its users open it in, written from the same column list
 * as the CSV (columns.ts), so the types each snippet gives are the ones the file has: pandas
 * (a dtype for every column: integers that have gaps stay integers, text stays text), GDAL (the
 * .csvt beside the CSV, which it reads by itself, over HTTP too) and DuckDB (a type for every
 * column, so a column empty in every row is still read as its type). The dataset page shows
 * them; tests/agents/peak-data-tools.test.ts runs the pandas and GDAL ones on the served files.
 */
import { peakColumns, type PeakColumn } from './columns.ts';

const pandasType: Record<Exclude<PeakColumn['type'], 'date'>, string> = {
  string: 'string',
  integer: 'Int64',
  number: 'float64',
  boolean: 'boolean',
};

const duckdbType: Record<PeakColumn['type'], string> = {
  string: 'VARCHAR',
  integer: 'BIGINT',
  number: 'DOUBLE',
  boolean: 'BOOLEAN',
  date: 'DATE',
};

/** `"a": "x", "b": "y"` items, wrapped to lines of about 90 characters after `indent`. */
function wrapped(items: string[], indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    if (line && line.length + item.length + 2 > 90) {
      lines.push(line);
      line = '';
    }
    line = line ? `${line} ${item}` : item;
  }
  if (line) lines.push(line);
  return lines.map((l) => `${indent}${l}`).join('\n');
}

/** pandas: every column with its type, the date parsed as a date (pandas 1.5 and later). */
export function pandasCode(csvUrl: string): string {
  const dtypes = peakColumns
    .filter((c) => c.type !== 'date')
    .map((c) => `"${c.name}": "${pandasType[c.type as keyof typeof pandasType]}",`);
  const dates = peakColumns.filter((c) => c.type === 'date').map((c) => `"${c.name}"`);
  return [
    'import pandas as pd',
    '',
    'peaks = pd.read_csv(',
    `    "${csvUrl}",`,
    '    dtype={',
    wrapped(dtypes, '        '),
    '    },',
    `    parse_dates=[${dates.join(', ')}],`,
    ')',
  ].join('\n');
}

/** GDAL: the field types from the .csvt beside the CSV, and a point layer from the two coordinates. */
export function gdalCommands(csvUrl: string): string {
  const source = `/vsicurl/${csvUrl}`;
  return [
    `ogrinfo -ro -al -so ${source}`,
    `ogr2ogr -f GPKG peaks.gpkg ${source} -oo X_POSSIBLE_NAMES=longitude -oo Y_POSSIBLE_NAMES=latitude -a_srs EPSG:4326`,
  ].join('\n');
}

/** DuckDB: read_csv with a type for every column. */
export function duckdbQuery(csvUrl: string): string {
  const types = peakColumns.map((c) => `'${c.name}': '${duckdbType[c.type]}',`);
  return ['SELECT *', `FROM read_csv('${csvUrl}', types = {`, wrapped(types, '    ').replace(/,$/, ''), '});'].join(
    '\n',
  );
}
