/**
 * How the enquiries command (command.ts) shows enquiries to the team: a few lines each in a list,
 * every field in full (`list --long`, `show`), or as data (`list --json`). Times are India's,
 * where the team works. What a visitor or the team wrote is shown as text: the form keeps no
 * control characters (enquiry.ts), and any that reached storage another way is written as `\xNN`,
 * so nothing in an enquiry can move the cursor or recolour the terminal.
 */
import { formatIndiaDateTime } from '../../domain/format.ts';
import type { StoredEnquiry } from './store.ts';

/** How much of a message a list shows; `--long` and `show` show all of it. */
const messageInList = 120;

/** Text as typed, with any control character but a line break written out. */
function asText(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g,
    (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

/** Text on one line of a list: line breaks as " / ", cut at `max` characters. */
function oneLine(text: string, max: number): string {
  const line = asText(text).replace(/\s*\n\s*/g, ' / ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function when(date: Date): string {
  return formatIndiaDateTime(date);
}

function delivery(e: StoredEnquiry): string {
  return e.deliveryState === 'delivered' && e.deliveredAt
    ? `delivered ${when(e.deliveredAt)}`
    : `${e.deliveryState} after ${e.attempts} attempt(s)`;
}

function team(e: StoredEnquiry): string {
  return e.handledAt ? `handled ${when(e.handledAt)}` : 'open';
}

/** An enquiry in a list: when it came, the trip, dates, group, delivery and the team's state; who; what they wrote. */
export function enquiryLines(e: StoredEnquiry): string {
  const lines = [
    `${e.id}  ${when(e.createdAt)} IST  ${e.tripSlug}  dates: ${e.preferredDeparture ? oneLine(e.preferredDeparture, 100) : '-'}  ${e.groupSize} pax  [${delivery(e)}]  ${team(e)}`,
    `    ${asText(e.name)}  ${asText(e.phone)}  ${e.email ? asText(e.email) : 'no email'}`,
  ];
  if (e.message) lines.push(`    message: ${oneLine(e.message, messageInList)}`);
  if (e.handledNote) lines.push(`    note: ${oneLine(e.handledNote, messageInList)}`);
  if (e.deliveryState !== 'delivered' && e.lastError) lines.push(`    last error: ${oneLine(e.lastError, 300)}`);
  return lines.join('\n');
}

/** Every field of an enquiry, each on its own line, a message of several lines kept as written. */
export function enquiryInFull(e: StoredEnquiry): string {
  const field = (name: string, value: string) =>
    `  ${name.padEnd(12)} ${value.split('\n').join(`\n  ${' '.repeat(12)} `)}`;
  const fields = [
    field('received', `${when(e.createdAt)} IST`),
    field('trip', `${asText(e.trip.name)} (${e.tripSlug}), ${e.trip.url}`),
    field('dates', e.preferredDeparture ? asText(e.preferredDeparture) : '-'),
    field('group', `${e.groupSize} ${e.groupSize === 1 ? 'person' : 'people'}`),
    field('name', asText(e.name)),
    field('phone', asText(e.phone)),
    field('email', e.email ? asText(e.email) : '-'),
    field('message', e.message ? asText(e.message) : '-'),
    field(
      'delivery',
      `${delivery(e)}${e.deliveryState === 'delivered' ? ' IST' : ''}${e.deliveryRef ? ` as ${e.deliveryRef}` : ''}`,
    ),
  ];
  if (e.deliveryState !== 'delivered' && e.lastError) fields.push(field('last error', asText(e.lastError)));
  fields.push(field('team', e.handledAt ? `${team(e)} IST` : 'open'));
  if (e.handledNote) fields.push(field('note', asText(e.handledNote)));
  return [e.id, ...fields].join('\n');
}
