/**
 * Which recorded changes (service/departures/changes.ts) concern whom: the changes a watch is
 * alerted about, and the changes a search's feed lists. Both are worked out from the departure
 * before and after the change, with the board's own search (departures/search.ts).
 *
 * A date watched ("Tell me when seats open") hears when the date can take its party again
 * (seats from below the party size to at least it, or a sold-out date open again), when its
 * price is lowered and when it is cancelled. A search watched ("Tell me about new dates that
 * fit") hears of a departure that fits it now and is new, or did not fit before (seats opened, a
 * lower price), or fits and got cheaper. A feed lists every change of a departure the search
 * finds, before or after the change.
 */
import { tripBySlug, type Catalogue } from '../../domain/catalogue/index.ts';
import { formatInr } from '../../domain/format.ts';
import type { DepartureChange, ChangeKind } from '../departures/changes.ts';
import { effectivePrice } from '../departures/changes.ts';
import { monthAsDates, type BoardFilters } from '../departures/board-filters.ts';
import { seatsLine, statusLabel } from '../departures/departure-words.ts';
import { hasRoomFor, matchesSearch } from '../departures/search.ts';
import { toDeparture, type StoredDeparture } from '../departures/source.ts';
import type { Watch } from './watch.ts';

/** Whether a departure (as stored) passes the board's filters, with the trip it belongs to. */
function inSearch(d: StoredDeparture | null, filters: BoardFilters, catalogue: Catalogue): boolean {
  if (!d) return false;
  const page = tripBySlug(catalogue, d.tripSlug);
  const departure = toDeparture(d, catalogue);
  return page !== undefined && departure !== null && matchesSearch(departure, page, monthAsDates(filters));
}

/** Whether `people` could ask to join the departure. */
const roomFor = (d: StoredDeparture | null, people: number) => d !== null && hasRoomFor(d, people);

/** The kinds of `change` that alert `watch`, in the order they are named; none when it does not concern it. */
export function alertKinds(
  watch: Pick<Watch, 'subject' | 'partySize'>,
  change: DepartureChange,
  catalogue: Catalogue,
): ChangeKind[] {
  const { subject, partySize } = watch;
  const { before, after, kinds } = change;
  const opened = roomFor(after, partySize) && !roomFor(before, partySize);
  if (subject.kind === 'departure') {
    if (change.departureId !== subject.departureId) return [];
    const named: ChangeKind[] = [];
    if (opened) named.push(kinds.includes('seats_opened') ? 'seats_opened' : 'status_changed');
    if (kinds.includes('price_lowered')) named.push('price_lowered');
    if (kinds.includes('cancelled')) named.push('cancelled');
    return named;
  }
  const fits = (d: StoredDeparture | null) => inSearch(d, subject.filters, catalogue) && roomFor(d, partySize);
  if (!fits(after)) return [];
  if (kinds.includes('new_date')) return ['new_date'];
  if (!fits(before)) return kinds.filter((k) => k !== 'cancelled');
  return kinds.includes('price_lowered') ? ['price_lowered'] : [];
}

/** Whether a search's feed lists `change`: the departure is one the search finds, before or after it. */
export function inFeed(change: DepartureChange, filters: BoardFilters, catalogue: Catalogue): boolean {
  return inSearch(change.after, filters, catalogue) || inSearch(change.before, filters, catalogue);
}

/** What one kind of change did, in a few words: "seats opened: No seats left → 3 of 12 seats left". */
function changeWords(kind: ChangeKind, change: DepartureChange, catalogue: Catalogue): string {
  const { before, after } = change;
  const tripPrice = tripBySlug(catalogue, after.tripSlug)?.trip.priceInr ?? null;
  const price = (d: StoredDeparture) => formatInr(effectivePrice(d, tripPrice));
  switch (kind) {
    case 'new_date':
      return `new date: ${statusLabel[after.status]}, ${seatsLine(after).toLowerCase()}, ${price(after)} per person`;
    case 'seats_opened':
      return `seats opened: ${before ? `${seatsLine(before).toLowerCase()} → ` : ''}${seatsLine(after).toLowerCase()}`;
    case 'price_lowered':
      return `price lowered: ${before ? `${price(before)} → ` : ''}${price(after)} per person`;
    case 'status_changed':
      return `now ${statusLabel[after.status]}${before ? ` (was ${statusLabel[before.status]})` : ''}, ${seatsLine(after).toLowerCase()}`;
    case 'cancelled':
      return `cancelled${after.note ? `: ${after.note}` : ''}`;
  }
}

/** Every kind named, in one sentence: "Seats opened: … ; price lowered: …". */
export function changeSentence(kinds: readonly ChangeKind[], change: DepartureChange, catalogue: Catalogue): string {
  const text = kinds.map((kind) => changeWords(kind, change, catalogue)).join('; ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
