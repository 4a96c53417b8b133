/**
 * The email the team receives for an enquiry: a subject a person can scan in an inbox, a
 * plain-text body and the same content as HTML. Every visitor-supplied value is escaped in the
 * HTML; the text was already normalised when the enquiry was checked. When the visitor gave an
 * email address, replies go to it (the mailer sets Reply-To).
 */
import { formatIndiaTime } from '../../domain/format.ts';
import { escapeHtml } from '../../domain/html.ts';
import type { StoredEnquiry } from './store.ts';

export { escapeHtml };

export interface EnquiryEmail {
  subject: string;
  text: string;
  html: string;
}
function people(n: number): string {
  return n === 1 ? '1 person' : `${n} people`;
}

/** India's time with the UTC instant for the record. */
function receivedAt(date: Date): string {
  return `${formatIndiaTime(date)} (${date.toISOString()})`;
}

/** The call-back the site promised, as a sentence for the team. */
function promised(enquiry: StoredEnquiry): string {
  return enquiry.callbackPromise ? `The site told them a guide will call ${enquiry.callbackPromise}.` : '';
}

export function composeEnquiryEmail(enquiry: StoredEnquiry): EnquiryEmail {
  const context = { tripName: enquiry.trip.name, tripUrl: enquiry.trip.url };
  const dates = enquiry.preferredDeparture ?? 'Not given (flexible)';
  const rows: [string, string][] = [
    ['Trip', `${context.tripName} (${enquiry.tripSlug})`],
    ['Dates wanted', dates],
    ['Group', people(enquiry.groupSize)],
    ['Name', enquiry.name],
    ['Phone', enquiry.phone],
    ['Email', enquiry.email ?? 'Not given'],
    ['Received', receivedAt(enquiry.createdAt)],
    ['Reference', enquiry.id],
  ];
  const callBack = ['Call back to confirm seats: nothing is booked until a guide confirms.', promised(enquiry)]
    .filter(Boolean)
    .join(' ');
  const message = enquiry.message ?? '(no message)';
  const subject = `Enquiry: ${context.tripName}, ${people(enquiry.groupSize)}, ${enquiry.name}`.slice(0, 200);

  const text = [
    `New booking enquiry for ${context.tripName}.`,
    callBack,
    '',
    ...rows.map(([label, value]) => `${`${label}:`.padEnd(14)}${value}`),
    '',
    'Message:',
    message,
    '',
    `Trip page: ${context.tripUrl}`,
    '',
  ].join('\n');

  const html = [
    '<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;line-height:1.5">',
    `<p><strong>New booking enquiry for ${escapeHtml(context.tripName)}.</strong><br>${escapeHtml(callBack)}</p>`,
    '<table cellpadding="4" style="border-collapse:collapse">',
    ...rows.map(
      ([label, value]) =>
        `<tr><th align="left" valign="top">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
    ),
    '</table>',
    '<p><strong>Message</strong></p>',
    `<p style="white-space:pre-wrap">${escapeHtml(message)}</p>`,
    `<p><a href="${escapeHtml(context.tripUrl)}">Trip page</a></p>`,
    '</body></html>',
  ].join('\n');

  return { subject, text, html };
}
