/**
 * /images/social/<slug>.png: each trip page's social card (og:image), built at deploy time; see
 * social-card.ts. Before any card is drawn, the build checks that every card's words fit it
 * (social-card-text-check.ts) and stops, naming the trips, when one would be cut or wrapped.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { tripSocialCard } from '../../../components/social-card.ts';
import { assertSocialCardTextFits } from '../../../components/social-card-text-check.ts';
import { getCatalogue } from '../../../lib/catalogue.ts';

export const getStaticPaths: GetStaticPaths = async () => {
  const catalogue = await getCatalogue();
  await assertSocialCardTextFits(catalogue);
  return catalogue.trips.map((page) => ({ params: { slug: page.trip.slug } }));
};

export const GET: APIRoute = async ({ params }) => {
  const catalogue = await getCatalogue();
  const page = catalogue.trips.find((t) => t.trip.slug === params.slug);
  if (!page) return new Response(null, { status: 404 });
  return new Response(new Uint8Array(await tripSocialCard(catalogue, page)), { headers: { 'Content-Type': 'image/png' } });
};
