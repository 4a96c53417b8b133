/**
 * Text in the cells of every CSV the site writes (the peak dataset's peaks.csv, the departures
 * export), as a spreadsheet opens it: one rule for both, and for the content check that keeps
 * such text out of the peak records.
 *
 * A spreadsheet runs a cell that starts with = + - @, a tab or a carriage return as a formula, so
 * a value such as `=HYPERLINK(…)` would act when the file is opened. Such a text cell is written
 * behind a single quote (OWASP's advice on CSV injection), which spreadsheets show as text and
 * the importers here take off again. A cell that is a plain number (`-12`, `+3.5`) runs nothing
 * and stays as it is, so data tools still read it as a number; numbers written as numbers are
 * never touched.
 */

/** A cell a spreadsheet reads as a number: sign, digits, an optional fraction and exponent. */
const plainNumber = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Quotes already in front count too, so a cell that starts `'=` is written `''=` and reads back unchanged. */
const runnable = /^'*[=+\-@\t\r]/;

/** The characters a cell must not start with, as a message names them. */
export const formulaTriggers = '=, +, -, @, a tab or a carriage return';

/** Whether a spreadsheet would run this text as a formula (or strip a quote meant for one). */
export function runsInSpreadsheet(text: string): boolean {
  return runnable.test(text) && !plainNumber.test(text);
}

/** The text as a CSV cell: behind a single quote when a spreadsheet would run it. */
export function neutralisedCell(text: string): string {
  return runsInSpreadsheet(text) ? `'${text}` : text;
}

/** Undoes neutralisedCell; hand-written files may quote such cells the same way. */
export function restoredCell(text: string): string {
  return /^'+[=+\-@\t\r]/.test(text) ? text.slice(1) : text;
}
