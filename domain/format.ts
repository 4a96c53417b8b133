/**
 * How numbers, money and dates read on the site and in its Markdown twins: Indian English
 * conventions (₹1,25,000; 5 Dec 2026), so the HTML page and its twin never differ.
 */
import { months } from './months.ts';

/**
 * Written by hand, as ICU writes them for Indian English (en-IN): the first Intl formatter a
 * process makes loads ICU's data, about 17 ms of a live function's cold start, and these few
 * forms are simple. tests/unit/format.test.ts holds each to Intl's own output over thousands of
 * values, so a change of the locale data in a Node release shows there.
 */
const shortMonths = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'];

/** Whole digits grouped the Indian way: the last three, then pairs (1,25,000). */
function indianGroups(digits: string): string {
  if (digits.length <= 3) return digits;
  const groups = [digits.slice(-3)];
  for (let end = digits.length - 3; end > 0; end -= 2) groups.unshift(digits.slice(Math.max(0, end - 2), end));
  return groups.join(',');
}

/**
 * A number with at most `decimals` fraction digits and none trailing, rounded half away from
 * zero on its shortest decimal form (ICU's halfExpand: 12.45 is 12.5), grouped the Indian way.
 */
function decimalText(value: number, decimals: 0 | 1): string {
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  const abs = Math.abs(value);
  // Past 1e21, and below 1e-6, JavaScript writes an exponent: such a number is whole, or rounds to 0.
  const [whole = '0', fraction = ''] =
    abs >= 1e21 ? [BigInt(abs).toString()] : abs < 1e-6 ? ['0'] : String(abs).split('.');
  let kept = `${whole}${fraction.slice(0, decimals).padEnd(decimals, '0')}`;
  if ((fraction[decimals] ?? '0') >= '5') kept = (BigInt(kept) + 1n).toString().padStart(decimals + 1, '0');
  const wholeDigits = decimals === 0 ? kept : kept.slice(0, -decimals) || '0';
  const fractionDigits = decimals === 0 ? '' : kept.slice(-decimals).replace(/0+$/, '');
  return `${sign}${indianGroups(wholeDigits)}${fractionDigits ? `.${fractionDigits}` : ''}`;
}

const integer = (value: number) => decimalText(value, 0);
const decimal = (value: number) => decimalText(value, 1);

/** India Standard Time, UTC+5:30, with no daylight saving since 1945. */
const istOffsetMs = 5.5 * 60 * 60 * 1000;

/** A moment's date and time in India, read from UTC shifted by IST's offset. */
function inIndia(date: Date): Date {
  return new Date(date.getTime() + istOffsetMs);
}

/** "5 Dec 2026", of a date read in UTC. */
function dayText(utc: Date): string {
  return `${utc.getUTCDate()} ${shortMonths[utc.getUTCMonth()]} ${utc.getUTCFullYear()}`;
}

/** "10:00 am", of a time read in UTC. */
function clockText(utc: Date): string {
  const hours = utc.getUTCHours();
  return `${hours % 12 || 12}:${String(utc.getUTCMinutes()).padStart(2, '0')} ${hours < 12 ? 'am' : 'pm'}`;
}

const priceOnRequest = 'Price on request';

/** A moment in India's time, where the team works and the departures run: "22 Nov 2026, 10:00 am IST". */
export function formatIndiaTime(date: Date): string {
  return `${formatIndiaDateTime(date)} IST`;
}

/** The same without the zone, where a line names it once: "22 Nov 2026, 10:00 am". */
export function formatIndiaDateTime(date: Date): string {
  const india = inIndia(date);
  return `${dayText(india)}, ${clockText(india)}`;
}

/** Its time of day alone: "2:39 pm IST". */
export function formatIndiaClock(date: Date): string {
  return `${clockText(inIndia(date))} IST`;
}

/** ₹1,25,000, or "Price on request" when the trip has no published price. */
export function formatInr(amount: number | null | undefined): string {
  return amount == null ? priceOnRequest : `₹${integer(amount)}`.replace('₹-', '-₹');
}

/** 4,270 m */
export function formatMetres(metres: number): string {
  return `${integer(metres)} m`;
}

/** 26 km, 12.5 km */
export function formatKm(km: number): string {
  return `${decimal(km)} km`;
}

/** 2 h, 8.5 h */
export function formatHours(hours: number): string {
  return `${decimal(hours)} h`;
}

export function formatDays(days: number): string {
  return days === 1 ? '1 day' : `${integer(days)} days`;
}

/** An ISO date (YYYY-MM-DD) as "5 Dec 2026"; anything else is returned unchanged. */
export function formatDate(iso: string): string {
  const date = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? iso : dayText(date);
}

/** "5 Jun 2027 to 9 Jun 2027", or one date when both are the same day: a departure's dates. */
export function formatDateRange(start: string, end: string): string {
  return start === end ? formatDate(start) : `${formatDate(start)} to ${formatDate(end)}`;
}

/** The ISO date of a date written as formatDate writes it ("5 Jun 2027"), or null. */
function readDate(text: string): string | null {
  const match = /^(\d{1,2}) (\p{L}+) (\d{4})$/u.exec(text);
  const month = match ? shortMonths.indexOf(match[2] ?? '') : -1;
  if (!match || month < 0) return null;
  const iso = `${match[3]}-${String(month + 1).padStart(2, '0')}-${(match[1] ?? '').padStart(2, '0')}`;
  return formatDate(iso) === text ? iso : null;
}

/** True when the text is a departure's dates exactly as formatDateRange writes them (so it says nothing personal). */
export function isWrittenDateRange(text: string): boolean {
  const [start, end, ...rest] = text.split(' to ');
  if (rest.length > 0 || !start) return false;
  const first = readDate(start);
  if (end === undefined) return first !== null;
  const last = readDate(end);
  return first !== null && last !== null && first < last;
}

/** A month (YYYY-MM) as "June 2027"; anything else is returned unchanged. */
export function formatMonth(yearMonth: string): string {
  const date = new Date(`${yearMonth}-01T00:00:00Z`);
  return /^\d{4}-\d{2}$/.test(yearMonth) && !Number.isNaN(date.getTime())
    ? `${months[date.getUTCMonth()]} ${date.getUTCFullYear()}`
    : yearMonth;
}

/** "+1,030 m" / "−650 m" / "±0 m": the height change of a day. */
export function formatAltitudeChange(from: number, to: number): string {
  const change = to - from;
  if (change === 0) return '±0 m';
  return `${change > 0 ? '+' : '−'}${integer(Math.abs(change))} m`;
}

/**
 * A line for a picture, where the text wraps in a box of its own: each figure keeps its unit
 * ("6,387 m", "15 days") on its line, joined by no-break spaces.
 */
export function unitsKeptWithFigures(text: string): string {
  return text.replace(/(\d) (m|km|h|ft|days?)\b/g, '$1\u00a0$2');
}

/** "1 trek", "7 treks". */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${integer(count)} ${count === 1 ? singular : plural}`;
}

/**
 * A page's meta description: search results show about 155 characters, so a longer text is cut
 * at the last whole sentence that fits, or else at a word, with an ellipsis.
 */
export function metaDescription(text: string, max = 155): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const sentences = clean.match(/[^.!?]+[.!?]+(\s|$)/g) ?? [];
  let fitted = '';
  for (const sentence of sentences) {
    if ((fitted + sentence).trim().length > max) break;
    fitted += sentence;
  }
  if (fitted.trim().length >= 60) return fitted.trim();
  const cut = clean.slice(0, max - 1);
  return `${cut.slice(0, cut.lastIndexOf(' ')).replace(/[\s,;:.–-]+$/, '')}…`;
}
