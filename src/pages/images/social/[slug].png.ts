/** /images/social/<slug>.png: each trip page's social card (og:image), built at deploy time; see social-card.ts. */
import type { APIRoute, GetStaticPaths } from 'astro';
import { drawMissingCards, tripCardDrawing, tripSocialCard } from '../../../components/social-card.ts';
import { getCatalogue } from '../../../lib/catalogue.ts';

export const getStaticPaths: GetStaticPaths = async () => {
  const catalogue = await getCatalogue();
  // The cards not in the build cache are drawn here, several at once; each page below then reads its own.
  const drawn = await drawMissingCards(catalogue.trips.map((page) => tripCardDrawing(catalogue, page)));
  console.log(`${new Date().toLocaleTimeString('en-GB')} [pictures] social cards: ${drawn} drawn, ${catalogue.trips.length - drawn} from the build cache`);
  return catalogue.trips.map((page) => ({ params: { slug: page.trip.slug } }));
};

export const GET: APIRoute = async ({ params }) => {
  const catalogue = await getCatalogue();
  const page = catalogue.trips.find((t) => t.trip.slug === params.slug);
  if (!page) return new Response(null, { status: 404 });
  return new Response(new Uint8Array(await tripSocialCard(catalogue, page)), { headers: { 'Content-Type': 'image/png' } });
};
