/**
 * The departure rules, in one place: every write (CLI, CSV import, seed) passes through
 * `checkDeparture`, and status follows seats through `settleStatus`.
 *
 * - dates are real and in order; a departure lasts at most `maxDays`;
 * - seats are whole numbers within bounds and never more left than in total;
 * - the trip slug names a trip in the catalogue;
 * - status follows seats: `sold_out` means 0 seats left, `filling` `fillingAt` seats or fewer,
 *   `open` more. Changing the seats without naming a status sets the status the seats
 *   suggest (so a sold-out departure whose seats free up opens again); a status given
 *   explicitly is kept unless it contradicts the seats; `cancelled` stays cancelled until
 *   someone sets another status. `sold_out` named without seats sets the seats left to 0
 *   (`seatsForStatus`): it is the first thing an operator types when a departure fills.
 */
import { listOf } from '../../domain/schemas/vocabulary.ts';
import type { AdminDeparture, DepartureStatus } from './source.ts';
import { knownTrip, type KnownTrip } from './trips.ts';

const limits = {
  maxDays: 90,
  maxSeats: 100,
  maxPriceInr: 10_000_000,
  maxNoteLength: 300,
  maxIdLength: 80,
} as const;

/** At this many seats left or fewer, an open departure is shown as filling. */
const fillingAt = 3;

export interface Issue {
  /** The field, as the CLI and the CSV name it. */
  field: string;
  message: string;
}

/** A write the rules refuse; `issues` name each field and what is wrong with it. */
export class DepartureRuleError extends Error {
  override name = 'DepartureRuleError';
  readonly issues: Issue[];

  constructor(issues: Issue[]) {
    super(issues.map((i) => `${i.field}: ${i.message}`).join('\n'));
    this.issues = issues;
  }
}

const day = 86_400_000;

export function addDays(iso: string, days: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + days * day).toISOString().slice(0, 10);
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / day);
}

/** The status seats alone suggest (new departures with no status given). */
export function statusForSeats(seatsLeft: number | null): DepartureStatus {
  if (seatsLeft === null) return 'open';
  if (seatsLeft === 0) return 'sold_out';
  return seatsLeft <= fillingAt ? 'filling' : 'open';
}

/**
 * The status after a change. An explicit status is kept (checkDeparture refuses contradictions);
 * otherwise a change of seats sets the status the seats suggest, except that a cancelled
 * departure stays cancelled.
 */
export function settleStatus(
  status: DepartureStatus,
  seatsLeft: number | null,
  change: { explicit: boolean; seatsChanged: boolean },
): DepartureStatus {
  if (change.explicit || !change.seatsChanged || status === 'cancelled' || seatsLeft === null) return status;
  return statusForSeats(seatsLeft);
}

/**
 * The seats left when a write names `status` and no seats left: none for sold_out, those of the
 * departure otherwise. Seats that were never set stay unset.
 */
export function seatsForStatus(status: DepartureStatus | null | undefined, seatsLeft: number | null): number | null {
  return status === 'sold_out' && seatsLeft !== null ? 0 : seatsLeft;
}

export function checkDeparture(d: AdminDeparture, trips: readonly KnownTrip[]): Issue[] {
  const issues: Issue[] = [];
  const add = (field: string, message: string) => issues.push({ field, message });

  if (!/^[a-z0-9-]+$/.test(d.id) || d.id.length > limits.maxIdLength) {
    add('id', `"${d.id}" must be 1 to ${limits.maxIdLength} lowercase letters, digits and hyphens`);
  }
  if (!knownTrip(trips, d.tripSlug)) {
    const known = trips.map((t) => t.slug);
    add('tripSlug', `no trip has the slug "${d.tripSlug}"; known trips: ${known.length ? known.join(', ') : 'none'}`);
  }
  if (d.endDate < d.startDate) {
    add('endDate', `${d.endDate} is before the start date ${d.startDate}`);
  } else if (daysBetween(d.startDate, d.endDate) + 1 > limits.maxDays) {
    add('endDate', `${d.startDate} to ${d.endDate} is longer than ${limits.maxDays} days; check the year`);
  }
  if (d.seatsTotal !== null && (d.seatsTotal < 1 || d.seatsTotal > limits.maxSeats)) {
    add('seatsTotal', `${d.seatsTotal} is outside 1 to ${limits.maxSeats}`);
  }
  if (d.seatsLeft !== null) {
    if (d.seatsLeft < 0) add('seatsLeft', `${d.seatsLeft} is below 0`);
    else if (d.seatsTotal !== null && d.seatsLeft > d.seatsTotal)
      add('seatsLeft', `${d.seatsLeft} is more than the ${d.seatsTotal} seats in total`);
    else if (d.seatsLeft > limits.maxSeats) add('seatsLeft', `${d.seatsLeft} is more than ${limits.maxSeats}`);
  }
  if (d.status === 'sold_out' && d.seatsLeft !== null && d.seatsLeft > 0) {
    add(
      'status',
      `sold_out needs 0 seats left, but ${d.seatsLeft} are left; set seatsLeft to 0 or choose ${listOf(['open', 'filling', 'cancelled'])}`,
    );
  }
  if ((d.status === 'open' || d.status === 'filling') && d.seatsLeft === 0) {
    add('status', `${d.status} needs seats left, but 0 are left; it is sold_out (or cancelled)`);
  }
  if (d.priceInr !== null && (!Number.isInteger(d.priceInr) || d.priceInr < 1 || d.priceInr > limits.maxPriceInr)) {
    add('priceInr', `${d.priceInr} must be a whole number of rupees from 1 to ${limits.maxPriceInr}`);
  }
  if (d.note !== null) {
    if (d.note.length > limits.maxNoteLength)
      add('note', `is ${d.note.length} characters; keep it to ${limits.maxNoteLength}`);
    // Control characters (line breaks included) would break the board, the CSV and the calendar.
    if (/\p{Cc}/u.test(d.note)) add('note', 'must be one line of plain text');
  }
  return issues;
}
