/**
 * The pages of alerts, written into the site's frame by the alerts function: the answer to a
 * watch (the same for every address: it never says whether one already watched), the
 * confirmation and unsubscribe pages (each a button, never an action on a GET, so a mail
 * scanner that opens links changes nothing), and their outcomes. Each says what is kept, why
 * and for how long.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { html, type SafeHtml } from '../../domain/html.ts';
import type { PageWriter } from '../bookings/responses.ts';
import { alertPaths } from '../departures/alert-paths.ts';
import { keptWords, type WatchSubject } from './watch.ts';
import { retention } from '../departures/alert-paths.ts';

/** What is kept, why and for how long: the same paragraph on every page and in /alerts. */
function keptSentence(subject: WatchSubject): string {
  return `We keep this email address and what it watches, with the times you asked and confirmed, only to send these alerts. They are deleted when you stop the alert, ${keptWords(subject)}, or within a day if you never confirm. Nothing else about you is kept, and nothing is shared.`;
}

export interface AlertPage {
  status: number;
  body: string;
}

function page(write: PageWriter, status: number, title: string, main: SafeHtml): AlertPage {
  return {
    status,
    body: write({
      title,
      description: 'Departure alerts by email.',
      canonicalPath: alertPaths.about,
      noindex: true,
      main,
    }),
  };
}

const about = html`<p class="muted"><a href="${alertPaths.about}">How alerts work, and what we keep</a></p>`;

/** The answer to a watch, whoever asked and whatever was there before. */
export function checkInboxPage(
  write: PageWriter,
  what: string,
  subject: WatchSubject,
  back: { href: string; label: string },
): AlertPage {
  return page(
    write,
    200,
    'Check your inbox',
    html`<h1>Check your inbox</h1>
<p class="lead">${checkInboxSentence(what)}</p>
<p>${keptSentence(subject)}</p>
<p><a href="${back.href}">${back.label}</a></p>
${about}`,
  );
}

/** The one sentence every watch is answered with. */
export function checkInboxSentence(what: string): string {
  return `Asked: ${what}. If this address is not watching it yet, we have sent it one email with a link to confirm (it works for ${retention.confirmHours} hours). Nothing else is sent until you confirm.`;
}

export function confirmPage(write: PageWriter, what: string, token: string): AlertPage {
  return page(
    write,
    200,
    'Confirm your alert',
    html`<h1>Confirm your alert</h1>
<p class="lead">Email this address about ${what}?</p>
<form method="post" action="${alertPaths.confirm}" class="alert-action">
<input type="hidden" name="token" value="${token}">
<button type="submit" class="button">Confirm the alert</button>
</form>
${about}`,
  );
}

export function confirmedPage(write: PageWriter, what: string, subject: WatchSubject): AlertPage {
  return page(
    write,
    200,
    'Your alert is on',
    html`<h1>Your alert is on</h1>
<p class="lead">We will email this address about ${what}, at most once a day, when something changes.</p>
<p>${keptSentence(subject)} Every email has a link to stop it in one click.</p>
<p><a href="/departures">Back to the departures</a></p>
${about}`,
  );
}

export function unsubscribePage(write: PageWriter, what: string, token: string): AlertPage {
  const action = `${alertPaths.unsubscribe}?token=${token}`;
  return page(
    write,
    200,
    'Stop alerts',
    html`<h1>Stop alerts</h1>
<p class="lead">This link stops the alert about ${what}, or every alert we send to this address.</p>
<form method="post" action="${action}" class="alert-action">
<button type="submit" name="scope" value="watch" class="button">Stop this alert</button>
<button type="submit" name="scope" value="everything" class="button secondary">Stop every alert to this address</button>
</form>
<p>Either way the address and what it watched are deleted at once.</p>
${about}`,
  );
}

export function unsubscribedPage(write: PageWriter): AlertPage {
  return page(
    write,
    200,
    'Alerts stopped',
    html`<h1>Alerts stopped</h1>
<p class="lead">No more alerts go to this address for what you stopped, and we no longer keep it for them.</p>
<p>To hear about a date or a search again, ask for it on <a href="/departures">the departures</a>.</p>`,
  );
}

/** A link that names nothing kept: used, stopped, mistyped, or an unconfirmed one past its time. */
export function unknownLinkPage(write: PageWriter): AlertPage {
  return page(
    write,
    404,
    'This link no longer works',
    html`<h1>This link no longer works</h1>
<p class="lead">The alert it was for was stopped, has ended with its date, or was never confirmed within ${retention.confirmHours} hours, so nothing about it is kept any more.</p>
<p>To watch a date or a search, ask again on <a href="/departures">the departures</a>.</p>
${about}`,
  );
}

export function problemPage(write: PageWriter, status: number, message: string, catalogue: Catalogue): AlertPage {
  const email = catalogue.site.contactEmail;
  return page(
    write,
    status,
    'Alerts',
    html`<h1>${status === 429 ? 'Please wait a little' : 'That did not work'}</h1>
<p class="lead">${message}</p>
<p>Questions: <a href="${`mailto:${email}`}">${email}</a>.</p>
<p><a href="/departures">Back to the departures</a></p>`,
  );
}
