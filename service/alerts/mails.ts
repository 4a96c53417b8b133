/**
 * The two emails of an alert, as a person reads them: the confirmation (the only mail before a
 * watch is confirmed) and the alert (at most one a day per watch, naming exactly what changed,
 * each with its live link). Both say what is kept and for how long, and both end with the plain
 * unsubscribe link that their `List-Unsubscribe` header also carries (RFC 8058, one click:
 * mail.ts). Every value is escaped in the HTML part.
 */
import { tripBySlug, type Catalogue } from '../../domain/catalogue/index.ts';
import { escapeHtml } from '../../domain/html.ts';
import type { DepartureChange, ChangeKind } from '../departures/changes.ts';
import { enquiryHref } from '../departures/enquiry-link.ts';
import { dateRange } from '../departures/departure-words.ts';
import { boardSearch } from '../departures/board-filters.ts';
import { changeSentence } from './matching.ts';
import { keptWords, subjectWords, type WatchSubject } from './watch.ts';
import { retention } from '../departures/alert-paths.ts';
import { alertPaths } from '../departures/alert-paths.ts';

/** A mail as it is queued (alert_mails) and sent. */
export interface AlertMail {
  subject: string;
  text: string;
  html: string;
}

/** The links a mail carries, made with its tokens. */
export interface MailLinks {
  confirm?: string;
  unsubscribe: string;
}

interface Block {
  /** A paragraph of text, or a line with a link. */
  text: string;
  link?: { href: string; label: string };
}

function people(n: number): string {
  return n === 1 ? '1 person' : `${n} people`;
}

/** One mail from blocks: text lines for the plain part, paragraphs for the HTML part. */
function mail(subject: string, blocks: readonly Block[]): AlertMail {
  const text = blocks.map((b) => (b.link ? `${b.text}\n${b.link.href}` : b.text)).join('\n\n');
  const html = [
    '<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;line-height:1.5;max-width:40rem">',
    ...blocks.map((b) =>
      b.link
        ? `<p>${escapeHtml(b.text)}<br><a href="${escapeHtml(b.link.href)}">${escapeHtml(b.link.label)}</a></p>`
        : `<p>${escapeHtml(b.text)}</p>`,
    ),
    '</body></html>',
  ].join('\n');
  return { subject: subject.slice(0, 200), text: `${text}\n`, html };
}

/** What is kept, why, for how long, and how to stop: the end of every mail. */
function footer(catalogue: Catalogue, subject: WatchSubject, links: MailLinks): Block[] {
  return [
    {
      text: `What we keep: this email address and what it watches, with when you asked and confirmed, only to send these alerts; ${keptWords(subject)}, or until you stop it. More:`,
      link: { href: `${catalogue.siteUrl}${alertPaths.about}`, label: 'What we keep, and why' },
    },
    {
      text: 'Stop these emails (one click on the page, nothing to log in to):',
      link: { href: links.unsubscribe, label: 'Unsubscribe' },
    },
    { text: `${catalogue.site.operatorName} · ${catalogue.siteUrl}` },
  ];
}

/** What the person asked for, with their party size. */
function askedFor(subject: WatchSubject, partySize: number, catalogue: Catalogue, departure?: DepartureNames): string {
  const what = subjectWords(subject, catalogue, departure);
  return subject.kind === 'departure'
    ? `${what}: when seats open for ${people(partySize)}`
    : `new dates that fit: ${what}`;
}

/** The dates of a departure watched, as the mail names them. */
export interface DepartureNames {
  id: string;
  tripSlug: string;
  startDate: string;
  endDate: string;
}

export function confirmationMail(
  catalogue: Catalogue,
  watch: { subject: WatchSubject; partySize: number },
  links: MailLinks & { confirm: string },
  departure?: DepartureNames,
): AlertMail {
  const site = catalogue.site.operatorName;
  const asked = askedFor(watch.subject, watch.partySize, catalogue, departure);
  return mail(`Confirm your departure alert: ${subjectWords(watch.subject, catalogue, departure)}`, [
    { text: `Someone, probably you, asked ${site} to email this address about ${asked}.` },
    {
      text: `Confirm it here (the link works for ${retention.confirmHours} hours):`,
      link: { href: links.confirm, label: 'Confirm the alert' },
    },
    {
      text: 'Until you confirm, nothing else is sent. If it was not you, ignore this email: the request is deleted within a day.',
    },
    ...footer(catalogue, watch.subject, links),
  ]);
}

/** The live link of a departure changed: its enquiry page (its seats and price, read live). */
function liveLink(catalogue: Catalogue, change: DepartureChange): string {
  const page = tripBySlug(catalogue, change.after.tripSlug);
  return page ? `${catalogue.siteUrl}${enquiryHref(page, change.departureId)}` : `${catalogue.siteUrl}/departures`;
}

/** One changed departure as an alert names it. */
function changeBlock(catalogue: Catalogue, change: DepartureChange, kinds: readonly ChangeKind[]): Block {
  const trip = tripBySlug(catalogue, change.after.tripSlug)?.trip.name ?? change.after.tripSlug;
  return {
    text: `${trip}, ${dateRange(change.after)}. ${changeSentence(kinds, change, catalogue)}.`,
    link: { href: liveLink(catalogue, change), label: 'Seats and price now, and enquire' },
  };
}

/** The subject line of an alert: what happened, and to what. */
function alertSubject(
  catalogue: Catalogue,
  subject: WatchSubject,
  found: readonly { change: DepartureChange; kinds: readonly ChangeKind[] }[],
): string {
  if (subject.kind === 'search')
    return `${found.length === 1 ? 'A date that fits' : `${found.length} dates that fit`}: ${subjectWords(subject, catalogue)}`;
  const { change, kinds } = found.at(-1)!;
  const what = kinds.includes('cancelled')
    ? 'Cancelled'
    : kinds.includes('seats_opened') || kinds.includes('status_changed')
      ? 'Seats open'
      : 'Lower price';
  return `${what}: ${subjectWords(subject, catalogue, change.after)}`;
}

export function alertMail(
  catalogue: Catalogue,
  watch: { subject: WatchSubject; partySize: number },
  found: readonly { change: DepartureChange; kinds: readonly ChangeKind[] }[],
  links: MailLinks,
): AlertMail {
  const departure = watch.subject.kind === 'departure' ? found.at(-1)?.change.after : undefined;
  const boardLink =
    watch.subject.kind === 'search'
      ? [
          {
            text: 'The whole search, read live:',
            link: {
              href: `${catalogue.siteUrl}/departures${boardSearch(watch.subject.filters)}`,
              label: 'Open the search',
            },
          },
        ]
      : [];
  return mail(alertSubject(catalogue, watch.subject, found), [
    {
      text: `You asked ${catalogue.site.operatorName} about ${askedFor(watch.subject, watch.partySize, catalogue, departure)}. What changed:`,
    },
    ...found.map(({ change, kinds }) => changeBlock(catalogue, change, kinds)),
    ...boardLink,
    {
      text: `Seats go quickly: the links show them as they are now. Nothing is held until you enquire and a guide confirms. You get at most one email a day for this alert.`,
    },
    ...footer(catalogue, watch.subject, links),
  ]);
}
