/**
 * Starter departures for a new embedded store: for each trip, two departures a month across
 * the months its season names, over the next 12 months. Deterministic, so every fresh
 * checkout shows the same board.
 */
import { months } from '../../domain/months.ts';
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { statusForSeats } from './validation.ts';
import type { AdminDeparture } from './source.ts';

/** Months named by a season text such as "June to September" or "December to April, and May". */
function seasonMonths(season: string): number[] {
  const found: { index: number; at: number }[] = [];
  months.forEach((name, index) => {
    for (const match of season.matchAll(new RegExp(`\\b(${name}|${name.slice(0, 3)})\\b`, 'gi')))
      found.push({ index, at: match.index ?? 0 });
  });
  found.sort((a, b) => a.at - b.at);
  const result = new Set<number>();
  for (let i = 0; i < found.length; i += 1) {
    const current = found[i]!;
    result.add(current.index);
    const next = found[i + 1];
    const between = next ? season.slice(current.at, next.at) : '';
    if (next && /\b(to|till|until|through)\b|[-–]/i.test(between)) {
      for (let m = current.index; m !== next.index; m = (m + 1) % 12) result.add(m);
    }
  }
  return [...result].sort((a, b) => a - b);
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function seedDepartures(catalogue: Catalogue, today: Date): AdminDeparture[] {
  const departures: AdminDeparture[] = [];
  const start = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()));
  catalogue.trips.forEach(({ trip }, tripIndex) => {
    const active = new Set(seasonMonths(trip.season));
    const days = trip.durationDays ?? 7;
    const seats = trip.type === 'expedition' ? 8 : 12;
    for (let offset = 0; offset < 12; offset += 1) {
      const month = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + offset, 1));
      if (!active.has(month.getUTCMonth())) continue;
      for (const day of [5 + (tripIndex % 4), 19 + (tripIndex % 5)]) {
        const first = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), day));
        if (first <= start) continue;
        const last = new Date(first.getTime() + (days - 1) * 86_400_000);
        const taken = (tripIndex * 7 + offset * 5 + day) % (seats + 1);
        const left = seats - taken;
        departures.push({
          id: `${trip.slug}-${isoDay(first)}`,
          tripSlug: trip.slug,
          startDate: isoDay(first),
          endDate: isoDay(last),
          status: statusForSeats(left),
          priceInr: null,
          seatsTotal: seats,
          seatsLeft: left,
          note: null,
          published: true,
        });
      }
    }
  });
  return departures;
}
