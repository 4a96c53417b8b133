/**
 * Seats on the date an enquiry asks for: a group larger than the seats left on it is refused,
 * with the number of seats, by the endpoint (against the departures read from storage when the
 * enquiry arrives) and by the form in the browser (against the live dates the page loaded), in
 * the same words. The date is the departure `preferredDeparture` names: its id, or its dates as
 * the site writes them ("23 Sep 2027 to 27 Sep 2027"), which is what the form sends for a chosen
 * date. Only dates that can be joined (open, filling) with seats left are checked: a sold-out
 * date may be asked about for a waiting list, and "Seats: ask us" has no count.
 */
import type { Departure } from '../../domain/schemas/departure.ts';
import { isBookable } from '../departures/board-filters.ts';
import { dateRange } from '../departures/departure-words.ts';
import { cleanText } from './enquiry.ts';

/**
 * The refusal of a group larger than the seats left. `dates` and `seats` are values, or the
 * placeholders the form's script fills in, so the browser says exactly what the server would.
 */
export function tooFewSeatsMessage(dates: string, seats: number | string): string {
  return `${seatsLeftSentence(dates, seats)} Enter a group of at most ${seats}, choose other dates, or tell us in your message how many you are.`;
}

/** "Seats left on 23 Sep 2027 to 27 Sep 2027: 2.": the group field's hint for a chosen date. */
export function seatsLeftSentence(dates: string, seats: number | string): string {
  return `Seats left on ${dates}: ${seats}.`;
}

/** The departures that `preferredDeparture` names, with a published count of seats and open for enquiries. */
function namedDepartures(preferredDeparture: string, departures: readonly Departure[]): Departure[] {
  const wanted = cleanText(preferredDeparture);
  if (wanted === '') return [];
  return departures.filter(
    (d) =>
      isBookable(d) &&
      d.seatsLeft != null &&
      d.seatsLeft > 0 &&
      (d.id === wanted || dateRange(d).toLowerCase() === wanted.toLowerCase()),
  );
}

/** The seats left on the date asked for: the most any departure of those dates has, or null when it has no count. */
export function seatsLeftOn(
  preferredDeparture: string,
  departures: readonly Departure[],
): { dates: string; seats: number } | null {
  const named = namedDepartures(preferredDeparture, departures);
  const [first] = named;
  if (!first) return null;
  return { dates: dateRange(first), seats: Math.max(...named.map((d) => d.seatsLeft ?? 0)) };
}

/** Why the group does not fit on the date asked for, or null when it does (or the date has no count). */
export function seatsRefusal(
  groupSize: number,
  preferredDeparture: string | null,
  departures: readonly Departure[],
): string | null {
  const left = preferredDeparture ? seatsLeftOn(preferredDeparture, departures) : null;
  return left && groupSize > left.seats ? tooFewSeatsMessage(left.dates, left.seats) : null;
}
