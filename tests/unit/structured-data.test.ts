/**
 * The JSON-LD of trip pages and of the departures board meets what search engines document as
 * required for the types it uses: a Product (Google's product snippets and merchant listings) has
 * a name, an image and offers with a positive price and a currency; a trip priced on request is
 * no Product and gets no invented price; no trip or departure is marked up as an Event (Google's
 * event guidelines exclude trip packages); FAQPage and BreadcrumbList have their required members;
 * the page's dateModified is when its facts were last checked.
 */
import { describe, expect, it } from 'vitest';
import { departuresJsonLd, tripJsonLd } from '../../domain/page/structured-data.ts';
import { socialImagePath } from '../../domain/page/trip-images.ts';
import type { Departure } from '../../domain/schemas/departure.ts';
import { loadCatalogue } from '../helpers/content.ts';

type Node = Record<string, unknown>;
const catalogue = loadCatalogue(undefined, 'https://example.test');
const page = (slug: string) => catalogue.trips.find((t) => t.trip.slug === slug)!;
const typesOf = (node: Node) => [node['@type']].flat() as string[];

/** Every node of a JSON-LD document, nested ones included. */
function nodes(value: unknown): Node[] {
  if (Array.isArray(value)) return value.flatMap(nodes);
  if (!value || typeof value !== 'object') return [];
  const node = value as Node;
  return [...(node['@type'] ? [node] : []), ...Object.values(node).flatMap(nodes)];
}

/** Google's required members for the types used here; an empty list is a pass. */
function problems(doc: unknown): string[] {
  const found: string[] = [];
  for (const node of nodes(doc)) {
    const types = typesOf(node);
    const at = `${types.join('+')} ${(node.name ?? node['@id'] ?? '') as string}`;
    if (types.some((t) => t.endsWith('Event'))) found.push(`${at}: a trip or departure marked up as an Event`);
    if (types.includes('Product')) {
      if (!node.name) found.push(`${at}: no name`);
      const images = [node.image].flat().filter((i): i is string => typeof i === 'string');
      if (images.length === 0 || !images.every((i) => /^https:\/\//.test(i))) found.push(`${at}: no absolute image`);
      const offers = [node.offers].flat().filter(Boolean) as Node[];
      if (offers.length === 0) found.push(`${at}: no offers`);
      for (const o of offers) {
        if (!(typeof o.price === 'number' && o.price > 0)) found.push(`${at}: an offer without a price`);
        if (o.priceCurrency !== 'INR') found.push(`${at}: an offer without priceCurrency`);
      }
    }
    if (types.includes('Offer') && 'price' in node !== 'priceCurrency' in node)
      found.push(`${at}: price and priceCurrency go together`);
    if (types.includes('FAQPage')) {
      for (const q of [node.mainEntity].flat() as Node[])
        if (!q.name || !(q.acceptedAnswer as Node | undefined)?.text)
          found.push(`${at}: a question without name or answer text`);
    }
    if (types.includes('BreadcrumbList') || types.includes('ItemList')) {
      (node.itemListElement as Node[]).forEach((item, i) => {
        if (item.position !== i + 1) found.push(`${at}: positions are not 1, 2, 3…`);
      });
    }
  }
  return found;
}

function departure(slug: string, id: string, status: Departure['status'], priceInr: number | null): Departure {
  const { trip } = page(slug);
  return {
    id,
    tripSlug: slug,
    tripName: trip.name,
    tripUrl: trip.url,
    startDate: '2027-05-01',
    endDate: '2027-05-08',
    status,
    priceInr,
    seatsTotal: 12,
    seatsLeft: status === 'sold_out' ? 0 : 4,
  };
}

describe('trip JSON-LD', () => {
  it('a priced trip is a Product and a TouristTrip, with the social card as image and priced offers', () => {
    const doc = tripJsonLd(catalogue, page('sample-trek'), [
      departure('sample-trek', 'd1', 'open', 15000),
      departure('sample-trek', 'd2', 'cancelled', 15000),
    ]);
    expect(problems(doc)).toEqual([]);
    const trip = nodes(doc).find((n) => n['@id'] === 'https://example.test/treks/sample-trek#trip')!;
    expect(typesOf(trip)).toEqual(['Product', 'TouristTrip']);
    expect(trip.image).toEqual([`https://example.test${socialImagePath('sample-trek')}`]);
    expect(socialImagePath('sample-trek')).toBe('/images/social/sample-trek.png');
    expect(trip.offers).toEqual([
      expect.objectContaining({ price: 15000, priceCurrency: 'INR', availability: 'https://schema.org/InStock' }),
    ]);
    // Without departures the trip price stands as the one offer.
    const plain = tripJsonLd(catalogue, page('sample-trek'), []);
    expect(problems(plain)).toEqual([]);
    expect(nodes(plain).find((n) => n['@id'] === trip['@id'])?.offers).toEqual([
      expect.objectContaining({ price: 15000 }),
    ]);
  });

  it('a trip priced on request is a TouristTrip only, its offers carry availability and no price', () => {
    const slug = 'sample-expedition';
    expect(page(slug).trip.priceInr).toBeNull();
    for (const departures of [[], [departure(slug, 'e1', 'filling', null), departure(slug, 'e2', 'sold_out', null)]]) {
      const doc = tripJsonLd(catalogue, page(slug), departures);
      expect(problems(doc)).toEqual([]);
      const trip = nodes(doc).find((n) => n['@id'] === `${page(slug).trip.url}#trip`)!;
      expect(trip['@type']).toBe('TouristTrip');
      expect(trip.image).toEqual([`https://example.test/images/social/${slug}.png`]);
      expect(trip).not.toHaveProperty('brand');
      for (const o of [trip.offers ?? []].flat() as Node[]) expect(o).not.toHaveProperty('price');
      if (departures.length > 0) {
        expect((trip.offers as Node[]).map((o) => o.availability)).toEqual([
          'https://schema.org/LimitedAvailability',
          'https://schema.org/SoldOut',
        ]);
      } else {
        expect(trip).not.toHaveProperty('offers');
      }
    }
  });

  it("says when the page's facts were last checked: the WebPage's dateModified is the trip's lastUpdated, and the trip is its main entity", () => {
    const { trip } = page('sample-trek');
    expect(trip.lastUpdated).toBe('2026-11-22');
    const webPage = nodes(tripJsonLd(catalogue, page('sample-trek'), [])).find((n) => n['@type'] === 'WebPage')!;
    expect(webPage).toEqual({
      '@type': 'WebPage',
      '@id': trip.url,
      url: trip.url,
      name: trip.name,
      mainEntity: { '@id': `${trip.url}#trip` },
      dateModified: '2026-11-22',
    });
    // A trip that states no date says none.
    const undated = { ...page('sample-trek'), trip: { ...trip, lastUpdated: undefined } };
    expect(nodes(tripJsonLd(catalogue, undated, [])).find((n) => n['@type'] === 'WebPage')).not.toHaveProperty(
      'dateModified',
    );
  });

  it('a priced trip with a departure whose price is unknown is no Product either', () => {
    const doc = tripJsonLd(catalogue, page('sample-trek'), [
      departure('sample-trek', 'd1', 'open', 15000),
      departure('sample-trek', 'd3', 'open', null),
    ]);
    expect(problems(doc)).toEqual([]);
    expect(nodes(doc).find((n) => String(n['@id']).endsWith('#trip'))?.['@type']).toBe('TouristTrip');
  });
});

describe('departures board JSON-LD', () => {
  it('lists each departure that can be joined as a dated TouristTrip with an offer whose availability is its status', () => {
    const departures = [
      departure('sample-trek', 'd1', 'open', 15000),
      departure('sample-trek', 'd2', 'filling', 15000),
      departure('sample-expedition', 'e1', 'sold_out', null),
      departure('sample-expedition', 'e2', 'cancelled', null),
    ];
    const doc = departuresJsonLd(catalogue, departures);
    expect(problems(doc)).toEqual([]);
    const list = nodes(doc).find(
      (n) => n['@type'] === 'ItemList' && n['@id'] === 'https://example.test/departures#list',
    )!;
    expect(list.numberOfItems).toBe(3);
    const items = (list.itemListElement as Node[]).map((e) => e.item as Node);
    expect(items.map((i) => i['@type'])).toEqual(['TouristTrip', 'TouristTrip', 'TouristTrip']);
    expect(items[0]).toMatchObject({
      departureTime: '2027-05-01',
      arrivalTime: '2027-05-08',
      url: 'https://example.test/treks/sample-trek#departures',
      image: ['https://example.test/images/social/sample-trek.png'],
    });
    expect(items.map((i) => (i.offers as Node).availability)).toEqual([
      'https://schema.org/InStock',
      'https://schema.org/LimitedAvailability',
      'https://schema.org/SoldOut',
    ]);
    expect(items[2]?.offers).not.toHaveProperty('price');
    expect(items[0]?.offers).toMatchObject({ price: 15000, priceCurrency: 'INR' });
  });

  it('is a valid, empty list when nothing is on sale', () => {
    const doc = departuresJsonLd(catalogue, []);
    expect(problems(doc)).toEqual([]);
    expect(nodes(doc).find((n) => n['@type'] === 'ItemList')).toMatchObject({ numberOfItems: 0, itemListElement: [] });
  });
});
