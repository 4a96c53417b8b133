/**
 * What the departure view (src/mcp-app/) is given with its document, from the catalogue the
 * server answers from: each trip's facts as the board's cards say them, the search's filters as
 * the board's form shows them (service/departures/search-form.ts, from search.ts), and the
 * enquiry form's fields with the rules and words of the trip page's form
 * (service/bookings/form-html.ts, enquiry.ts). The departures themselves come from the tools'
 * structured results, through the host; nothing here changes between two reads of one build.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { tripSearchFacts } from '../../domain/catalogue/trip-facts.ts';
import {
  fieldMessages,
  fieldPatterns,
  groupSizeCap,
  groupSizeMessage,
  limitSentence,
  textLimits,
} from '../bookings/enquiry.ts';
import { fieldHints, formFieldLabels } from '../bookings/form-html.ts';
import { seatsLeftSentence, tooFewSeatsMessage } from '../bookings/seats.ts';
import { searchFieldOrder, searchFields, type SearchField } from '../departures/search-form.ts';

interface ViewTrip {
  name: string;
  /** Its page, where the view's link leads. */
  url: string;
  /** "Moderate trek · 5 days · Kullu and Lahaul, Himachal Pradesh", as the board's card says it. */
  facts: string;
  /** The largest group one enquiry takes, and the refusal of a larger one. */
  cap: number;
  groupMessage: string;
}

export interface DepartureViewData {
  operatorName: string;
  /** Each trip of the catalogue, by slug. */
  trips: Record<string, ViewTrip>;
  /** The search's filters, in the order the board's form shows them. */
  filters: SearchField[];
  enquiry: {
    labels: typeof formFieldLabels;
    hints: { phone: string; email: string; message: string };
    /** The browser's `pattern` of each one-line field, and the server's refusal of a value that breaks it. */
    patterns: { name: string; phone: string; email: string };
    titles: { name: string; phone: string; email: string };
    missing: { name: string; phone: string; groupSize: string };
    messageMax: number;
    /** "Seats left on {dates}: {seats}." and its refusal, with the placeholders the view fills in. */
    seatsHint: string;
    tooMany: string;
    /** What pressing Send does, said before it is pressed. */
    consent: string;
    /** What happens next, as the call-back promise says it. */
    callback: string;
  };
}

export function departureViewData(catalogue: Catalogue): DepartureViewData {
  const { site } = catalogue;
  const fields = searchFields(catalogue);
  return {
    operatorName: site.operatorName,
    trips: Object.fromEntries(
      catalogue.trips.map((page) => {
        const cap = groupSizeCap(page.trip.groupSize);
        return [
          page.trip.slug,
          {
            name: page.trip.name,
            url: page.trip.url,
            facts: tripSearchFacts(page),
            cap,
            groupMessage: groupSizeMessage(cap, page.trip.name),
          },
        ];
      }),
    ),
    filters: searchFieldOrder.map((name) => fields[name]),
    enquiry: {
      labels: formFieldLabels,
      hints: { phone: fieldHints.phone, email: fieldHints.email, message: fieldHints.message },
      patterns: { name: fieldPatterns.name, phone: fieldPatterns.phone, email: fieldPatterns.email },
      titles: {
        name: `${fieldMessages.name.missing} ${limitSentence('name')}`,
        phone: fieldMessages.phone.invalid,
        email: fieldMessages.email.invalid,
      },
      missing: {
        name: fieldMessages.name.missing,
        phone: fieldMessages.phone.missing,
        groupSize: fieldMessages.groupSize.missing,
      },
      messageMax: textLimits.message,
      seatsHint: seatsLeftSentence('{dates}', '{seats}'),
      tooMany: tooFewSeatsMessage('{dates}', '{seats}'),
      consent: `Pressing Send passes the details above to ${site.operatorName}'s team. Nothing is booked: a guide calls you back to confirm seats and dates.`,
      callback: `A guide calls you back ${site.callbackPromise}.`,
    },
  };
}
