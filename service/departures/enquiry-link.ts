/** The address of a departure's enquiry: the one link the board, the twins and the enquiry page share. */
import type { TripPage } from '../../domain/catalogue/index.ts';

/**
 * Where "Enquire for this date" leads: the trip's enquiry form with the date filled in, written
 * live (it works without JavaScript). On a trip page /enquiry.js chooses the date in the page's
 * own form instead.
 */
export function enquiryHref(page: Pick<TripPage, 'path'>, departureId: string): string {
  return `${page.path}/enquire?departure=${encodeURIComponent(departureId)}`;
}
