/** The address of a departure's enquiry: the one link the board, the twins and the enquiry page share. */
import type { TripPage } from '../../domain/catalogue/index.ts';

/** The enquiry page's query parameters: the departure chosen, and the group a search was made for. */
export const departureParam = 'departure';
export const groupSizeParam = 'groupSize';

/**
 * Where "Enquire for this date" leads: the trip's enquiry form with the date filled in, written
 * live (it works without JavaScript), and the group size when the search named one (the board's
 * "People"), so nothing asked once is asked again. On a trip page /enquiry.js chooses the date in
 * the page's own form instead.
 */
export function enquiryHref(page: Pick<TripPage, 'path'>, departureId: string, groupSize?: number): string {
  const query = `${departureParam}=${encodeURIComponent(departureId)}`;
  return `${page.path}/enquire?${query}${groupSize === undefined ? '' : `&${groupSizeParam}=${groupSize}`}`;
}
