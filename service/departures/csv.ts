/**
 * Departures as CSV (RFC 4180) for the operations team's spreadsheets: the export writes
 * every departure, hidden ones included; the import reads the same columns back. Cells are
 * text; input.ts turns them into values.
 *
 * A text cell a spreadsheet would run as a formula (`=HYPERLINK(…)` in a note) is written behind
 * a single quote and read back without it, by the rule every CSV of the site follows
 * (domain/csv-cells.ts); numbers are written as numbers.
 */
import { neutralisedCell, restoredCell } from '../../domain/csv-cells.ts';
import { csvColumns } from './input.ts';
import type { Issue } from './validation.ts';
import type { AdminDeparture } from './source.ts';

/** A value as cell text: numbers as numbers, booleans as yes/no, text behind a quote when it would run. */
function cellText(value: string | number | boolean | null): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return typeof value === 'number' ? String(value) : neutralisedCell(value);
}

function cell(value: string | number | boolean | null): string {
  const text = cellText(value);
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

export function departuresToCsv(departures: readonly AdminDeparture[]): string {
  const lines = [csvColumns.join(',')];
  for (const d of departures) lines.push(csvColumns.map((column) => cell(d[column])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Records of a CSV text, each with the line it starts on. Quoted cells may hold commas, quotes and line breaks. */
export function parseCsv(text: string): { line: number; cells: string[] }[] {
  const records: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let current = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let cellStarted = false;
  const source = text.replace(/^\uFEFF/, '');
  const endRecord = () => {
    cells.push(current);
    if (cells.length > 1 || cells[0]!.trim() !== '') records.push({ line: recordLine, cells });
    cells = [];
    current = '';
    cellStarted = false;
  };
  for (let i = 0; i < source.length; i += 1) {
    const ch = source[i]!;
    if (quoted) {
      if (ch === '"' && source[i + 1] === '"') {
        current += '"';
        i += 1;
      } else if (ch === '"') {
        quoted = false;
      } else {
        if (ch === '\n') line += 1;
        current += ch;
      }
      continue;
    }
    if (ch === '"' && !cellStarted) {
      quoted = true;
      cellStarted = true;
    } else if (ch === ',') {
      cells.push(current);
      current = '';
      cellStarted = false;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && source[i + 1] === '\n') i += 1;
      endRecord();
      line += 1;
      recordLine = line;
    } else {
      current += ch;
      if (ch.trim() !== '') cellStarted = true;
    }
  }
  if (quoted) throw new CsvError([{ field: `line ${recordLine}`, message: 'a quoted cell is never closed' }]);
  if (current !== '' || cells.length > 0) endRecord();
  return records;
}

export class CsvError extends Error {
  override name = 'CsvError';
  readonly issues: Issue[];
  constructor(issues: Issue[]) {
    super(issues.map((i) => `${i.field}: ${i.message}`).join('\n'));
    this.issues = issues;
  }
}

/** The data rows of a departures CSV as objects keyed by column; the header must name known columns. */
export function readDepartureCsv(text: string): { line: number; record: Record<string, string> }[] {
  const [header, ...rows] = parseCsv(text);
  if (!header)
    throw new CsvError([
      { field: 'file', message: `is empty; the first line must name the columns: ${csvColumns.join(',')}` },
    ]);
  const names = header.cells.map((c) => c.trim());
  const unknown = names.filter((n) => !(csvColumns as readonly string[]).includes(n));
  const missing = (['tripSlug', 'startDate'] as const).filter((n) => !names.includes(n));
  const issues: Issue[] = [];
  if (unknown.length)
    issues.push({
      field: `line ${header.line}`,
      message: `unknown column(s) ${unknown.map((n) => `"${n}"`).join(', ')}; the columns are ${csvColumns.join(',')}`,
    });
  if (missing.length) issues.push({ field: `line ${header.line}`, message: `missing column(s) ${missing.join(', ')}` });
  if (issues.length) throw new CsvError(issues);
  return rows.map(({ line, cells }) => {
    if (cells.length > names.length)
      throw new CsvError([
        { field: `line ${line}`, message: `has ${cells.length} cells but the header names ${names.length} columns` },
      ]);
    return { line, record: Object.fromEntries(names.map((name, i) => [name, restoredCell(cells[i] ?? '')])) };
  });
}
