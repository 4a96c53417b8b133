/** /v1/trips/<slug> for every trip, published as files; see service/v1/static-answers.ts. */
import type { APIRoute, GetStaticPaths } from 'astro';
import { staticAnswer } from '../../../../service/v1/static-answers.ts';
import { getCatalogue } from '../../../lib/catalogue.ts';

export const getStaticPaths: GetStaticPaths = async () => (await getCatalogue()).trips.map((page) => ({ params: { slug: page.trip.slug } }));

export const GET: APIRoute = async ({ params }) => staticAnswer(await getCatalogue(), `/v1/trips/${params.slug}`);
