/**
 * The whole price of a trip, as a trekker adds it up: the published price per person, the total
 * with GST, the deposit that confirms a seat and the cancellation terms, from the site's booking
 * settings. A term the settings leave out is absent here, never filled in.
 */
import type { SiteSettings } from '../schemas/site.ts';
import type { TripContent, Trip } from '../schemas/trip.ts';

export interface WholePrice {
  /** Per person, as published; null when the trip is priced on request. */
  priceInr: number | null;
  /** GST rate and the per-person total with it, when both the rate and the price are known. */
  gst: { percent: number; totalInr: number | null } | null;
  depositPercent: number | null;
  /** The terms in one line, and the id of the FAQ that has them in full on the trip page. */
  cancellation: { summary: string; faqId: string | null } | null;
}

/** The id the trip page gives the question about cancelling, the full terms. */
export const cancellationFaqId = 'cancellation-terms';

/** Which of the trip's questions is about cancelling, if any. */
export function cancellationFaqIndex(content: Pick<TripContent, 'faqs'>): number {
  return content.faqs.findIndex((faq) => /\bcancel/i.test(faq.question));
}

export function wholePrice(
  site: SiteSettings,
  trip: Pick<Trip, 'priceInr'>,
  content: Pick<TripContent, 'faqs'>,
): WholePrice {
  const priceInr = trip.priceInr ?? null;
  const booking = site.booking ?? {};
  const gst =
    booking.gstPercent != null
      ? {
          percent: booking.gstPercent,
          totalInr: priceInr != null ? Math.round((priceInr * (100 + booking.gstPercent)) / 100) : null,
        }
      : null;
  const cancellation = booking.cancellation
    ? { summary: booking.cancellation, faqId: cancellationFaqIndex(content) >= 0 ? cancellationFaqId : null }
    : null;
  return { priceInr, gst, depositPercent: booking.depositPercent ?? null, cancellation };
}
