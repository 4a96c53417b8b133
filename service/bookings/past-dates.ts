/**
 * Dates wanted that have passed. "Dates you want" is free text, so it is read only for dates
 * with a year, in the forms the site writes them and people type them: "23–27 Sept 2027",
 * "15 March 2020", "March 15, 2020", "October 2027", "2027-09-23", "2027-09", or a departure id
 * ("hampta-pass-trek-2027-09-23"). When every such date is before today in India (a month counts
 * until its last day), the enquiry asks for a time that is gone, and is refused with one plain
 * sentence; text naming no date with a year ("late June", "flexible") is passed on as written.
 *
 * The form's field carries the expression and the sentence (form-html.ts), and /enquiry.js reads
 * them with the same steps as `lastDayNamed`, so the browser refuses what the server would.
 */
import { todayInIndia } from '../departures/today.ts';

/** The refusal, as the server and the form's script say it. */
export const pastDatesMessage =
  'Those dates have already passed. Give dates from today on, or leave the field empty and tell the guide when you call.';

/**
 * A date with a year. Groups: day, month, year ("27 Sept 2027", "October 2027"); month, day,
 * year ("March 15, 2020"); year, month, day (ISO, the day optional). Matched in any letter case.
 */
export const namedDatePattern = String.raw`(?:\b(\d{1,2})(?:st|nd|rd|th)?\s+)?\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?:(\d{1,2})(?:st|nd|rd|th)?,?\s+)?(\d{4})\b|\b(\d{4})-(\d{2})(?:-(\d{2}))?\b`;

const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const two = (n: number) => String(n).padStart(2, '0');

/** The last day of a month (1-12) of a year, as YYYY-MM-DD. */
function monthEnd(year: number, month: number): string {
  return `${year}-${two(month)}-${two(new Date(Date.UTC(year, month, 0)).getUTCDate())}`;
}

/** The latest day `text` names with a year (YYYY-MM-DD; a month without a day is its last day), or null. */
export function lastDayNamed(text: string): string | null {
  let last: string | null = null;
  for (const m of text.matchAll(new RegExp(namedDatePattern, 'gi'))) {
    const [, dayBefore, name, dayAfter, year, isoYear, isoMonth, isoDay] = m;
    const y = Number(year ?? isoYear);
    const month = name ? months.indexOf(name.toLowerCase()) + 1 : Number(isoMonth);
    const dayText = dayBefore ?? dayAfter ?? isoDay;
    const day = dayText === undefined ? undefined : Number(dayText);
    if (month < 1 || month > 12 || (day !== undefined && (day < 1 || day > 31))) continue;
    const iso = day === undefined ? monthEnd(y, month) : `${y}-${two(month)}-${two(day)}`;
    if (last === null || iso > last) last = iso;
  }
  return last;
}

/** Whether every date `text` names with a year is before today in India (and it names one). */
export function namesOnlyPastDates(text: string, now: Date): boolean {
  const last = lastDayNamed(text);
  return last !== null && last < todayInIndia(now);
}
