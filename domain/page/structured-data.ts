/**
 * schema.org JSON-LD for the pages, built from the same values the page prints, using only types
 * whose search-engine requirements the data meets:
 *   - a trip is a TouristTrip, and also a Product only when every offer has a price: Google's
 *     Product results require an image and offers with price and currency, and a trip priced on
 *     request has no price to give (none is invented);
 *   - the departures board is an ItemList of TouristTrips, one per departure with its dates and
 *     an Offer whose availability comes from the status. Not Event: Google's event guidelines
 *     exclude trip packages. TouristTrip has no rich result of its own, hence no requirements
 *     beyond schema.org's;
 *   - FAQPage and BreadcrumbList as Google documents them;
 *   - the trip page as a WebPage whose `dateModified` is when the trip's facts were last checked
 *     (`lastUpdated`), the date the page prints as "last checked" (TouristTrip, not a
 *     CreativeWork, has no dateModified of its own).
 *   - the peak dataset is a Dataset with a DataDownload per published format (Google's dataset
 *     guidelines: name, description, licence, creator, distribution with encodingFormat).
 */
import type { Catalogue, TripPage } from '../catalogue/index.ts';
import type { Departure } from '../schemas/departure.ts';
import { socialImagePath } from './trip-images.ts';
import { peakDataDir, peakDataFileList } from '../catalogue/peak-data-files.ts';

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
  return {
    '@type': 'Organization',
    '@id': `${catalogue.siteUrl}/#organization`,
    name: catalogue.site.operatorName,
    url: `${catalogue.siteUrl}/`,
    email: catalogue.site.contactEmail,
  };
}

export function breadcrumbs(catalogue: Catalogue, trail: { name: string; path: string }[]): JsonLd {
  return {
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((crumb, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: crumb.name,
      item: `${catalogue.siteUrl}${crumb.path}`,
    })),
  };
}

function tripImageUrl(catalogue: Catalogue, slug: string): string {
  return `${catalogue.siteUrl}${socialImagePath(slug)}`;
}

/** A departure as an Offer; none for a cancelled one, which cannot be joined. */
function offer(tripName: string, tripUrl: string, departure: Departure): JsonLd | null {
  const status = availability[departure.status];
  if (!status) return null;
  return {
    '@type': 'Offer',
    name: `${tripName}, ${departure.startDate} to ${departure.endDate}`,
    url: `${tripUrl}#departures`,
    availability: status,
    ...(departure.priceInr != null ? { price: departure.priceInr, priceCurrency: 'INR' } : {}),
    validThrough: departure.startDate,
    availabilityEnds: departure.startDate,
    ...(departure.seatsLeft != null
      ? { inventoryLevel: { '@type': 'QuantitativeValue', value: departure.seatsLeft } }
      : {}),
  };
}

export function tripJsonLd(catalogue: Catalogue, page: TripPage, departures: Departure[]): JsonLd {
  const { trip, content } = page;
  const offers = departures.flatMap((d): JsonLd[] => {
    const deal = offer(trip.name, trip.url, d);
    return deal ? [deal] : [];
  });
  if (offers.length === 0 && trip.priceInr != null) {
    offers.push({
      '@type': 'Offer',
      url: trip.url,
      price: trip.priceInr,
      priceCurrency: 'INR',
      ...(trip.priceNote ? { description: trip.priceNote } : {}),
    });
  }
  const priced = offers.length > 0 && offers.every((o) => typeof o.price === 'number' && o.price > 0);
  const section =
    trip.type === 'trek' ? { name: 'Treks', path: '/treks' } : { name: 'Expeditions', path: '/expeditions' };
  return {
    '@context': 'https://schema.org',
    '@graph': [
      organization(catalogue),
      {
        '@type': priced ? ['Product', 'TouristTrip'] : 'TouristTrip',
        '@id': `${trip.url}#trip`,
        name: trip.name,
        description: trip.description,
        url: trip.url,
        image: [tripImageUrl(catalogue, trip.slug)],
        // Product-only members, for the Product reading of a priced trip.
        ...(priced
          ? {
              category: trip.type === 'trek' ? 'Trek' : 'Mountaineering expedition',
              brand: { '@id': `${catalogue.siteUrl}/#organization` },
            }
          : {}),
        provider: { '@id': `${catalogue.siteUrl}/#organization` },
        ...(trip.alternateNames ? { alternateName: trip.alternateNames } : {}),
        ...(trip.tags ? { keywords: trip.tags.join(', ') } : {}),
        touristType:
          trip.difficulty === 'Easy' || trip.difficulty === 'Moderate'
            ? 'Trekkers'
            : 'Experienced trekkers and climbers',
        itinerary: {
          '@type': 'ItemList',
          numberOfItems: content.itinerary.length,
          itemListElement: content.itinerary.map((day) => ({
            '@type': 'ListItem',
            position: day.day,
            name: `Day ${day.day}: ${day.title}`,
          })),
        },
        ...(offers.length > 0 ? { offers } : {}),
      },
      // The page itself, for its freshness: when its facts were last checked (the trip's lastUpdated).
      {
        '@type': 'WebPage',
        '@id': trip.url,
        url: trip.url,
        name: trip.name,
        mainEntity: { '@id': `${trip.url}#trip` },
        ...(trip.lastUpdated ? { dateModified: trip.lastUpdated } : {}),
      },
      {
        '@type': 'FAQPage',
        '@id': `${trip.url}#faqs`,
        mainEntity: content.faqs.map((faq) => ({
          '@type': 'Question',
          name: faq.question,
          acceptedAnswer: { '@type': 'Answer', text: faq.answer },
        })),
      },
      breadcrumbs(catalogue, [{ name: 'Home', path: '/' }, section, { name: trip.name, path: page.path }]),
    ],
  };
}

/**
 * The departures board: every departure that can still be joined, in board order, as a
 * TouristTrip with its dates (dates only: no departure hour is published) and an Offer whose
 * availability is the status. Cancelled departures are left out, as they are from trip offers.
 */
export function departuresJsonLd(catalogue: Catalogue, departures: readonly Departure[]): JsonLd {
  const items = departures.flatMap((d) => {
    const deal = offer(d.tripName, d.tripUrl, d);
    if (!deal) return [];
    return [
      {
        '@type': 'TouristTrip',
        '@id': `${d.tripUrl}#departure-${d.id}`,
        name: `${d.tripName}, ${d.startDate} to ${d.endDate}`,
        url: `${d.tripUrl}#departures`,
        image: [tripImageUrl(catalogue, d.tripSlug)],
        departureTime: d.startDate,
        arrivalTime: d.endDate,
        provider: { '@id': `${catalogue.siteUrl}/#organization` },
        ...(d.note ? { description: d.note } : {}),
        offers: deal,
      },
    ];
  });
  return {
    '@context': 'https://schema.org',
    '@graph': [
      organization(catalogue),
      {
        '@type': 'ItemList',
        '@id': `${catalogue.siteUrl}/departures#list`,
        name: `Departures of ${catalogue.site.operatorName}`,
        url: `${catalogue.siteUrl}/departures`,
        itemListOrder: 'https://schema.org/ItemListOrderAscending',
        numberOfItems: items.length,
        itemListElement: items.map((item, i) => ({ '@type': 'ListItem', position: i + 1, item })),
      },
      breadcrumbs(catalogue, [
        { name: 'Home', path: '/' },
        { name: 'Departures', path: '/departures' },
      ]),
    ],
  };
}

/** The open peak dataset as a schema.org Dataset, each file a DataDownload with its media type. */
export function peakDatasetJsonLd(catalogue: Catalogue, description: string): JsonLd {
  const { dataset } = catalogue.site;
  return {
    '@type': 'Dataset',
    '@id': `${catalogue.siteUrl}${peakDataDir}#dataset`,
    name: dataset.name,
    description,
    url: `${catalogue.siteUrl}${peakDataDir}`,
    version: dataset.version,
    dateModified: dataset.lastUpdated,
    license: dataset.licenseUrl,
    creator: { '@id': `${catalogue.siteUrl}/#organization` },
    isAccessibleForFree: true,
    spatialCoverage: 'Indian Himalaya',
    distribution: peakDataFileList.map((file) => ({
      '@type': 'DataDownload',
      name: `${dataset.name} (${file.format})`,
      encodingFormat: file.mediaType.split(';')[0],
      contentUrl: `${catalogue.siteUrl}${file.path}`,
    })),
  };
}
