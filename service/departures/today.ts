import { formatter } from '../../domain/format.ts';

/** Today's date in India, where the departures run: the first day still "upcoming". */
export function todayInIndia(now = new Date()): string {
  return indiaDay().format(now);
}

const indiaDay = formatter(
  () =>
    new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata', year: 'numeric', month: '2-digit', day: '2-digit' }),
);
