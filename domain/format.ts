/**
 * How numbers, money and dates read on the site and in its Markdown twins: Indian English
 * conventions (₹1,25,000; 5 Dec 2026), so the HTML page and its twin never differ.
 */

/**
 * A formatter made once, at its first use: making one costs far more than using it (ICU reads its
 * patterns, and its locale data with the first), and a process that formats nothing (a live
 * function answering JSON) need not pay for any.
 */
export function formatter<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const inr = formatter(
  () => new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 0 }),
);
const integer = formatter(() => new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 }));
const decimal = formatter(() => new Intl.NumberFormat('en-IN', { maximumFractionDigits: 1 }));
const day = formatter(
  () => new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }),
);

const indiaDateTime = formatter(
  () => new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Kolkata' }),
);
const indiaClockTime = formatter(
  () => new Intl.DateTimeFormat('en-IN', { timeStyle: 'short', timeZone: 'Asia/Kolkata' }),
);

export const priceOnRequest = 'Price on request';

/** A moment in India's time, where the team works and the departures run: "22 Nov 2026, 10:00 am IST". */
export function formatIndiaTime(date: Date): string {
  return `${formatIndiaDateTime(date)} IST`;
}

/** The same without the zone, where a line names it once: "22 Nov 2026, 10:00 am". */
export function formatIndiaDateTime(date: Date): string {
  return indiaDateTime().format(date);
}

/** Its time of day alone: "2:39 pm IST". */
export function formatIndiaClock(date: Date): string {
  return `${indiaClockTime().format(date)} IST`;
}

/** ₹1,25,000, or "Price on request" when the trip has no published price. */
export function formatInr(amount: number | null | undefined): string {
  return amount == null ? priceOnRequest : inr().format(amount);
}

/** 4,270 m */
export function formatMetres(metres: number): string {
  return `${integer().format(metres)} m`;
}

/** 26 km, 12.5 km */
export function formatKm(km: number): string {
  return `${decimal().format(km)} km`;
}

/** 2 h, 8.5 h */
export function formatHours(hours: number): string {
  return `${decimal().format(hours)} h`;
}

export function formatDays(days: number): string {
  return days === 1 ? '1 day' : `${integer().format(days)} days`;
}

/** An ISO date (YYYY-MM-DD) as "5 Dec 2026"; anything else is returned unchanged. */
export function formatDate(iso: string): string {
  const date = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? iso : day().format(date);
}

/** "5 Jun 2027 to 9 Jun 2027", or one date when both are the same day: a departure's dates. */
export function formatDateRange(start: string, end: string): string {
  return start === end ? formatDate(start) : `${formatDate(start)} to ${formatDate(end)}`;
}

const shortMonths = formatter(() =>
  Array.from(
    { length: 12 },
    (_, m) =>
      day()
        .formatToParts(new Date(Date.UTC(2026, m, 1)))
        .find((p) => p.type === 'month')?.value ?? '',
  ),
);

/** The ISO date of a date written as formatDate writes it ("5 Jun 2027"), or null. */
function readDate(text: string): string | null {
  const match = /^(\d{1,2}) (\p{L}+) (\d{4})$/u.exec(text);
  const month = match ? shortMonths().indexOf(match[2] ?? '') : -1;
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

const monthYear = formatter(
  () => new Intl.DateTimeFormat('en-IN', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
);

/** A month (YYYY-MM) as "June 2027"; anything else is returned unchanged. */
export function formatMonth(yearMonth: string): string {
  const date = new Date(`${yearMonth}-01T00:00:00Z`);
  return /^\d{4}-\d{2}$/.test(yearMonth) && !Number.isNaN(date.getTime()) ? monthYear().format(date) : yearMonth;
}

/** "+1,030 m" / "−650 m" / "±0 m": the height change of a day. */
export function formatAltitudeChange(from: number, to: number): string {
  const change = to - from;
  if (change === 0) return '±0 m';
  return `${change > 0 ? '+' : '−'}${integer().format(Math.abs(change))} m`;
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
  return `${integer().format(count)} ${count === 1 ? singular : plural}`;
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
