/**
 * How a departure reads wherever it is shown: its dates, its status, its seats and whether a
 * person can still ask to join it. The board's cards, the trip pages' block, the Markdown twins,
 * the calendars, the enquiry page and the MCP App's view (src/mcp-app/) all say it in these
 * words. Nothing here imports more than the formatting of numbers and dates, so the view's
 * script carries these few lines and nothing else of the server.
 */
import { formatDateRange, formatIndiaTime } from '../../domain/format.ts';
import type { Departure } from '../../domain/schemas/departure.ts';

export const statusLabel: Record<Departure['status'], string> = {
  open: 'Open',
  filling: 'Filling fast',
  sold_out: 'Sold out',
  cancelled: 'Cancelled',
};

export function dateRange(d: Pick<Departure, 'startDate' | 'endDate'>): string {
  return formatDateRange(d.startDate, d.endDate);
}

export function seatsText(d: Pick<Departure, 'seatsLeft' | 'seatsTotal' | 'status'>): string {
  if (d.status === 'cancelled') return 'None';
  if (d.seatsLeft == null) return 'Ask us';
  return d.seatsTotal == null ? String(d.seatsLeft) : `${d.seatsLeft} of ${d.seatsTotal}`;
}

/** The seats as a card says them: "2 of 12 seats left", "No seats left", "Seats: ask us". */
export function seatsLine(d: Pick<Departure, 'seatsLeft' | 'seatsTotal' | 'status'>): string {
  const seats = seatsText(d);
  if (d.status === 'cancelled') return 'Cancelled';
  if (seats === 'Ask us') return 'Seats: ask us';
  return d.seatsLeft === 0 ? 'No seats left' : `${seats} seats left`;
}

/** Departures a person can still ask to join. */
export function isBookable(d: Pick<Departure, 'status'>): boolean {
  return d.status === 'open' || d.status === 'filling';
}

/** The time of a live read, as readers in India see it. */
export function readAt(now: Date): string {
  return formatIndiaTime(now);
}
