/** Today's date in India, where the departures run: the first day still "upcoming". */
export function todayInIndia(now = new Date()): string {
  return indiaDay.format(now);
}

// Made once: a formatter costs far more to make than to use (ICU reads its patterns for each).
const indiaDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Asia/Kolkata',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
