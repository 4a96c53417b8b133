/** /v1/trips/<slug> for every trip, published as files; see service/v1/static-answers.ts. */
import type { APIRoute, GetStaticPaths } from 'astro';
import { staticAnswer } from '../../../../service/v1/static-answers.ts';
import { getCatalogue } from '../../../lib/catalogue.ts';
import { tripPageKey } from '../../../lib/content-key.ts';

export const getStaticPaths: GetStaticPaths = async () => {
  const catalogue = await getCatalogue();
  return catalogue.trips.map((page) => ({ params: { slug: page.trip.slug }, cacheKey: tripPageKey(catalogue, page) }));
};

export const GET: APIRoute = async ({ params }) => staticAnswer(await getCatalogue(), `/v1/trips/${params.slug}`);
