/**
 * A watch: an email address asking to hear about one departure ("Tell me when seats open") or
 * about a board search ("Tell me about new dates that fit"), and how long it is kept. The words
 * the pages and mails use for a watch, the retention they promise, and the tokens of their links
 * are all here, so what the pages say is what the job does.
 */
import { createHash, randomBytes } from 'node:crypto';
import { tripBySlug, type Catalogue } from '../../domain/catalogue/index.ts';
import { dateRange } from '../departures/departure-words.ts';
import { boardSearch, filtersInWords, monthAsDates, type BoardFilters } from '../departures/board-filters.ts';
import { addDays } from '../departures/validation.ts';
import { retention } from '../departures/alert-paths.ts';

/** What a watch is about. */
export type WatchSubject =
  | { kind: 'departure'; departureId: string }
  /** The board's filters, canonical (board-filters.ts); `{}` watches every departure. */
  | { kind: 'search'; filters: BoardFilters };

export interface Watch {
  id: string;
  email: string;
  subject: WatchSubject;
  /** How many people must fit: the party size asked with a date, or the search's minSeats. */
  partySize: number;
  state: 'pending' | 'confirmed';
  createdAt: Date;
  confirmedAt: Date | null;
  /** The last change recorded before it was confirmed: only later ones alert it. */
  fromChange: number;
}

/** The key a watch's subject is stored under: one watch per address and subject. */
export function subjectKey(subject: WatchSubject): string {
  return subject.kind === 'departure' ? `departure:${subject.departureId}` : `search:${boardSearch(subject.filters)}`;
}

/** The subject a stored key stands for. */
export function subjectOf(key: string): WatchSubject {
  if (key.startsWith('departure:')) return { kind: 'departure', departureId: key.slice('departure:'.length) };
  // Stored canonical by subjectKey, so read back as written.
  const filters: Record<string, string | number> = {};
  for (const [name, value] of new URLSearchParams(key.slice('search:'.length))) {
    filters[name] = /^(minDays|maxDays|minSeats|maxPriceInr)$/.test(name) ? Number(value) : value;
  }
  return { kind: 'search', filters };
}

/** The same address however it was typed: trimmed, in lower case. */
export function addressKey(email: string): string {
  return email.trim().toLowerCase();
}

/** The last day a search can match a departure on, or null when it has no end. */
function searchEnd(filters: BoardFilters): string | null {
  return monthAsDates(filters).to ?? null;
}

/** The day a watch is kept until at the latest: its departure's start, its search's end, or a year. */
export function watchUntil(subject: WatchSubject, today: string, departureStart?: string): string {
  if (subject.kind === 'departure') return departureStart ?? today;
  return searchEnd(subject.filters) ?? addDays(today, retention.searchDays);
}

/** A departure as a watch names it. */
interface NamedDeparture {
  tripSlug: string;
  startDate: string;
  endDate: string;
}

/** "Hampta Pass Trek, 5 Jun 2027 to 9 Jun 2027" or "new treks up to 8 days": what a watch is about, in words. */
export function subjectWords(subject: WatchSubject, catalogue: Catalogue, departure?: NamedDeparture): string {
  if (subject.kind === 'departure') {
    if (!departure) return 'a departure';
    const trip = tripBySlug(catalogue, departure.tripSlug)?.trip.name ?? departure.tripSlug;
    return `${trip}, ${dateRange(departure)}`;
  }
  const words = filtersInWords(subject.filters, catalogue);
  return words.length > 0 ? `departures: ${words.join(', ')}` : 'any of our departures';
}

/** How long a watch is kept, in words, for the pages and mails. */
export function keptWords(subject: WatchSubject): string {
  if (subject.kind === 'departure') return 'until the date starts';
  const end = searchEnd(subject.filters);
  return end ? 'until the last day of the search has passed' : `for ${retention.searchDays} days`;
}

/**
 * A token for a link (confirm, unsubscribe): 32 random bytes, unguessable, saying nothing about
 * the address. Only its hash is stored, so the database does not hold a working link.
 */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A token as links carry it: 43 characters of base64url. */
export const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

/** Ids of watches and mails: a prefix, the day and ten random letters, as enquiries have. */
export function newRecordId(prefix: string, now: Date): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';
  const random = Array.from(randomBytes(10), (b) => alphabet[b % alphabet.length]).join('');
  return `${prefix}-${now.toISOString().slice(0, 10).replaceAll('-', '')}-${random}`;
}
