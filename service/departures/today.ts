/** Today's date in India, where the departures run: the first day still "upcoming" (YYYY-MM-DD). */
export function todayInIndia(now = new Date()): string {
  // India Standard Time is UTC+5:30, with no daylight saving since 1945: no time-zone data needed.
  return new Date(now.getTime() + 5.5 * 60 * 60 * 1000).toISOString().slice(0, 10);
}
