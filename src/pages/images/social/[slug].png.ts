/**
 * /images/social/<slug>.png: each trip page's social card (og:image), built at deploy time; see
 * social-card.ts. Before any card is drawn, the build checks that every card's words fit it
 * (social-card-text-check.ts) and stops, naming the trips, when one would be cut or wrapped.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import {
  cardPicture,
  drawingCode,
  drawMissingCards,
  tripCardDrawing,
  type CardDrawing,
} from '../../../components/social-card.ts';
import { assertSocialCardTextFits } from '../../../components/social-card-text-check.ts';
import { getCatalogue } from '../../../lib/catalogue.ts';
import { pictureKey } from '../../../lib/picture-cache.ts';
import { tripBySlug } from '../../../../domain/catalogue/index.ts';

/** Each trip's card as described for the cache, worked out once for the paths and the pages. */
const drawings = new Map<string, CardDrawing>();

export const getStaticPaths: GetStaticPaths = async () => {
  const catalogue = await getCatalogue();
  await assertSocialCardTextFits(catalogue);
  for (const page of catalogue.trips) drawings.set(page.trip.slug, tripCardDrawing(catalogue, page));
  // The cards not in the build cache are drawn here, several at once; each page below then reads its own.
  const drawn = await drawMissingCards([...drawings.values()]);
  console.log(
    `${new Date().toLocaleTimeString('en-GB')} [pictures] social cards: ${drawn} drawn, ${drawings.size - drawn} from the build cache`,
  );
  // The same key as the picture cache's: Astro keeps the file of a card whose drawing has not changed.
  return catalogue.trips.map((page) => ({
    params: { slug: page.trip.slug },
    cacheKey: pictureKey(drawings.get(page.trip.slug), drawingCode()),
  }));
};

export const GET: APIRoute = async ({ params }) => {
  const catalogue = await getCatalogue();
  const page = tripBySlug(catalogue, params.slug);
  if (!page) return new Response(null, { status: 404 });
  const drawing = drawings.get(page.trip.slug) ?? tripCardDrawing(catalogue, page);
  return new Response(new Uint8Array(await cardPicture(drawing)), { headers: { 'Content-Type': 'image/png' } });
};
