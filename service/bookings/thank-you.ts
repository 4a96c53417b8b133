/**
 * GET /enquiry-sent?ref=<reference>: where the plain form lands after an enquiry was taken. It
 * confirms only what it can find: the reference, the trip and its dates, when the enquiry arrived
 * and when to expect a call; never the person's name, phone number or own words, since anyone
 * holding the address sees the page. So the dates are repeated when they are a departure's dates
 * as the site writes them (chosen from the departures); dates typed in other words are not.
 * Without a reference, or with one it does not know, it says so and how to enquire.
 * Never indexed or kept by a cache.
 */
import { tripBySlug, type Catalogue } from '../../domain/catalogue/index.ts';
import { formatIndiaTime, isWrittenDateRange } from '../../domain/format.ts';
import { html, type SafeHtml } from '../../domain/html.ts';
import { thankYouPath } from './enquiry.ts';
import { callBackSentence, type PageWriter } from './responses.ts';
import { enquiryIdPattern, type EnquiryStore, type StoredEnquiry } from './store.ts';
import { cachePolicy } from '../http/cache-policy.ts';

export interface ThankYouDeps {
  catalogue: Catalogue;
  /** The enquiry store, opened only when there is a reference to look up; null when storage is off. */
  enquiries: () => Promise<EnquiryStore | null>;
  page: PageWriter;
}

const noStore = { 'Cache-Control': cachePolicy.never, 'Content-Type': 'text/html; charset=utf-8' };

function browse(catalogue: Catalogue): SafeHtml {
  const email = catalogue.site.contactEmail;
  return html`<p>To ask about a trip, use the form on its page (<a href="/treks">treks</a>, <a href="/expeditions">expeditions</a>, <a href="/departures">all departures</a>), or write to <a href="${`mailto:${email}`}">${email}</a>.</p>`;
}

/** "Your enquiry is about Fixture Trek, 5 Jun 2027 to 9 Jun 2027." (the dates only when they are a departure's). */
function about(enquiry: StoredEnquiry): string {
  const dates =
    enquiry.preferredDeparture && isWrittenDateRange(enquiry.preferredDeparture)
      ? `, ${enquiry.preferredDeparture}`
      : '';
  return `Your enquiry is about ${enquiry.trip.name}${dates}.`;
}

function datesLine(dates: string | null): SafeHtml {
  if (!dates) return html`None given: the guide will ask which dates suit you.`;
  if (isWrittenDateRange(dates)) return html`<strong class="dates">${dates}</strong>`;
  return html`As you wrote them in your enquiry (not repeated here, since anyone with this page’s address can open it).`;
}

function found(catalogue: Catalogue, enquiry: StoredEnquiry): { title: string; main: SafeHtml } {
  const page = tripBySlug(catalogue, enquiry.tripSlug);
  const email = catalogue.site.contactEmail;
  const delivered = enquiry.deliveryState === 'delivered';
  const title = delivered ? 'Thank you: your enquiry reached our team' : 'Your enquiry is saved';
  const status = delivered
    ? callBackSentence(enquiry)
    : 'It has not reached our team yet: it will be passed on as soon as our mail works again, and you do not need to send it again. Once it arrives, a guide will call you to confirm seats and dates; nothing is booked until then.';
  return {
    title,
    main: html`<h1>${title}</h1>
<p class="lead">${about(enquiry)} ${status}</p>
<dl class="enquiry-receipt">
<dt>Reference</dt><dd><strong class="reference">${enquiry.id}</strong></dd>
<dt>Trip</dt><dd><a href="${page?.path ?? enquiry.trip.url}">${enquiry.trip.name}</a></dd>
<dt>Dates</dt><dd>${datesLine(enquiry.preferredDeparture)}</dd>
<dt>Received</dt><dd>${formatIndiaTime(enquiry.createdAt)}</dd>
</dl>
<p>Something to add, or no call by then? Write to <a href="${`mailto:${email}?subject=${encodeURIComponent(`Enquiry ${enquiry.id}`)}`}">${email}</a> and quote your reference.</p>
<p><a href="/treks">Browse treks</a> · <a href="/expeditions">Browse expeditions</a> · <a href="/departures">See all departures</a></p>`,
  };
}

function notFound(catalogue: Catalogue, ref: string | null): { title: string; main: SafeHtml } {
  // Only a well-formed reference is repeated: the page never shows other text from its address.
  const named = ref && enquiryIdPattern.test(ref) ? html` “${ref}”` : '';
  const title = 'We have no enquiry with that reference';
  return {
    title,
    main: html`<h1>${title}</h1>
<p class="lead">This page confirms an enquiry sent from one of our trip pages, and the reference${named} in its address matches none of ours.</p>
<p>If you sent an enquiry and saw no confirmation with a reference, it may not have reached us: please send it again.</p>
${browse(catalogue)}`,
  };
}

function noReference(catalogue: Catalogue): { title: string; main: SafeHtml } {
  const title = 'No enquiry to show';
  return {
    title,
    main: html`<h1>${title}</h1>
<p class="lead">This page confirms an enquiry once it has been sent, by its reference. This address names no reference, so we have no enquiry to show here.</p>
${browse(catalogue)}`,
  };
}

function unavailable(catalogue: Catalogue): { title: string; main: SafeHtml } {
  const email = catalogue.site.contactEmail;
  const title = 'We cannot look up your enquiry just now';
  return {
    title,
    main: html`<h1>${title}</h1>
<p class="lead">Our enquiry records cannot be read at the moment, so this page cannot confirm the reference. Please try again in a few minutes.</p>
<p>If you were given a reference, we have your enquiry. For anything urgent write to <a href="${`mailto:${email}`}">${email}</a>.</p>`,
  };
}

export async function handleThankYouPage(request: Request, deps: ThankYouDeps): Promise<Response> {
  const ref = new URL(request.url).searchParams.get('ref')?.trim() ?? '';
  let status = 200;
  let content: { title: string; main: SafeHtml };
  if (!ref) content = noReference(deps.catalogue);
  else if (!enquiryIdPattern.test(ref)) {
    status = 404;
    content = notFound(deps.catalogue, ref);
  } else {
    let enquiry: StoredEnquiry | null = null;
    let readable = true;
    try {
      const store = await deps.enquiries();
      if (store) enquiry = await store.get(ref);
      else readable = false;
    } catch (error) {
      readable = false;
      console.error(
        `[enquiries] thank-you page could not read ${ref}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (!readable) status = 503;
    else if (!enquiry) status = 404;
    content = !readable
      ? unavailable(deps.catalogue)
      : enquiry
        ? found(deps.catalogue, enquiry)
        : notFound(deps.catalogue, ref);
  }
  const body = deps.page({
    title: content.title,
    description: 'The confirmation of a booking enquiry, by its reference.',
    canonicalPath: thankYouPath,
    noindex: true,
    main: content.main,
  });
  return new Response(body, { status, headers: noStore });
}
