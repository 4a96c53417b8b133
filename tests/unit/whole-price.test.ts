/** The whole price beside a trip's price: the total with GST, the deposit and the cancellation terms, from the site's settings only. */
import { describe, expect, it } from 'vitest';
import { cancellationFaqId, wholePrice } from '../../domain/catalogue/price.ts';
import { siteSettings } from '../../domain/schemas/site.ts';
import { loadCatalogue, realContent } from '../helpers/content.ts';

const catalogue = loadCatalogue(realContent);
const page = (slug: string) => catalogue.trips.find((t) => t.trip.slug === slug)!;

describe('the whole price', () => {
  it('adds GST to the published price, and names the deposit and the cancellation terms with a link to the full ones', () => {
    const price = wholePrice(catalogue.site, page('black-peak-expedition').trip, page('black-peak-expedition').content);
    expect(price).toEqual({
      priceInr: 68000,
      gst: { percent: 5, totalInr: 71400 },
      depositPercent: 20,
      cancellation: { summary: expect.stringMatching(/^More than 30 days before departure/), faqId: cancellationFaqId },
    });
  });

  it('every trip of the catalogue has its cancellation terms in full among its questions', () => {
    for (const trip of catalogue.trips)
      expect(wholePrice(catalogue.site, trip.trip, trip.content).cancellation?.faqId, trip.trip.slug).toBe(
        cancellationFaqId,
      );
  });

  it('shows nothing the settings do not give: no GST, deposit or terms are made up', () => {
    const { booking: _, ...bare } = catalogue.site;
    expect(wholePrice(bare, page('hampta-pass-trek').trip, page('hampta-pass-trek').content)).toEqual({
      priceInr: page('hampta-pass-trek').trip.priceInr,
      gst: null,
      depositPercent: null,
      cancellation: null,
    });
    // A trip priced on request has no total, only the rate.
    expect(wholePrice(catalogue.site, { priceInr: null }, { faqs: [] }).gst).toEqual({ percent: 5, totalInr: null });
    expect(wholePrice(catalogue.site, { priceInr: 1000 }, { faqs: [] }).cancellation?.faqId).toBeNull();
  });

  it('refuses terms longer than one line, and a deposit that is not a share of the price', () => {
    const base = { ...catalogue.site };
    expect(siteSettings.safeParse({ ...base, booking: { cancellation: 'x'.repeat(201) } }).success).toBe(false);
    expect(siteSettings.safeParse({ ...base, booking: { depositPercent: 120 } }).success).toBe(false);
    expect(siteSettings.safeParse({ ...base, booking: {} }).success).toBe(true);
  });
});
