/**
 * schema.org JSON-LD for the pages: the trip as a Product and TouristTrip with one Offer per
 * departure, its FAQPage, and breadcrumbs. Built from the same values the page prints.
 */
import type { Catalogue, TripPage } from '../../service/catalogue/index.ts';
import type { Departure } from '../schemas/departure.ts';

type JsonLd = Record<string, unknown>;

const availability: Record<Departure['status'], string | null> = {
  open: 'https://schema.org/InStock',
  filling: 'https://schema.org/LimitedAvailability',
  sold_out: 'https://schema.org/SoldOut',
  cancelled: null,
};

/** Serialises JSON-LD for a `<script type="application/ld+json">` body; `<` is escaped so no text can close the element. */
export function jsonLdText(data: JsonLd): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}

export function organization(catalogue: Catalogue): JsonLd {
  return { '@type': 'Organization', '@id': `${catalogue.siteUrl}/#organization`, name: catalogue.site.operatorName, url: `${catalogue.siteUrl}/`, email: catalogue.site.contactEmail };
}

export function breadcrumbs(catalogue: Catalogue, trail: { name: string; path: string }[]): JsonLd {
  return {
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((crumb, i) => ({ '@type': 'ListItem', position: i + 1, name: crumb.name, item: `${catalogue.siteUrl}${crumb.path}` })),
  };
}

function offer(page: TripPage, departure: Departure): JsonLd | null {
  const status = availability[departure.status];
  if (!status) return null;
  return {
    '@type': 'Offer',
    name: `${page.trip.name}, ${departure.startDate} to ${departure.endDate}`,
    url: `${page.trip.url}#departures`,
    availability: status,
    ...(departure.priceInr != null ? { price: departure.priceInr, priceCurrency: 'INR' } : {}),
    validThrough: departure.startDate,
    availabilityEnds: departure.startDate,
    ...(departure.seatsLeft != null ? { inventoryLevel: { '@type': 'QuantitativeValue', value: departure.seatsLeft } } : {}),
  };
}

export function tripJsonLd(catalogue: Catalogue, page: TripPage, departures: Departure[]): JsonLd {
  const { trip, content } = page;
  const offers = departures.flatMap((d) => offer(page, d) ?? []);
  if (offers.length === 0 && trip.priceInr != null) {
    offers.push({ '@type': 'Offer', url: trip.url, price: trip.priceInr, priceCurrency: 'INR', ...(trip.priceNote ? { description: trip.priceNote } : {}) });
  }
  const section = trip.type === 'trek' ? { name: 'Treks', path: '/treks' } : { name: 'Expeditions', path: '/expeditions' };
  return {
    '@context': 'https://schema.org',
    '@graph': [
      organization(catalogue),
      {
        '@type': ['Product', 'TouristTrip'],
        '@id': `${trip.url}#trip`,
        name: trip.name,
        description: trip.description,
        url: trip.url,
        category: trip.type === 'trek' ? 'Trek' : 'Mountaineering expedition',
        brand: { '@id': `${catalogue.siteUrl}/#organization` },
        provider: { '@id': `${catalogue.siteUrl}/#organization` },
        ...(trip.alternateNames ? { alternateName: trip.alternateNames } : {}),
        ...(trip.tags ? { keywords: trip.tags.join(', ') } : {}),
        touristType: trip.difficulty === 'Easy' || trip.difficulty === 'Moderate' ? 'Trekkers' : 'Experienced trekkers and climbers',
        itinerary: {
          '@type': 'ItemList',
          numberOfItems: content.itinerary.length,
          itemListElement: content.itinerary.map((day) => ({ '@type': 'ListItem', position: day.day, name: `Day ${day.day}: ${day.title}` })),
        },
        ...(offers.length > 0 ? { offers } : {}),
      },
      {
        '@type': 'FAQPage',
        '@id': `${trip.url}#faqs`,
        mainEntity: content.faqs.map((faq) => ({ '@type': 'Question', name: faq.question, acceptedAnswer: { '@type': 'Answer', text: faq.answer } })),
      },
      breadcrumbs(catalogue, [{ name: 'Home', path: '/' }, section, { name: trip.name, path: page.path }]),
    ],
  };
}
