/** /v1/peaks/<id> for every peak, published as files; see service/v1/static-answers.ts. */
import type { APIRoute, GetStaticPaths } from 'astro';
import { staticAnswer } from '../../../../service/v1/static-answers.ts';
import { getCatalogue } from '../../../lib/catalogue.ts';

export const getStaticPaths: GetStaticPaths = async () =>
  (await getCatalogue()).peaks.map((peak) => ({ params: { id: peak.id } }));

export const GET: APIRoute = async ({ params }) => staticAnswer(await getCatalogue(), `/v1/peaks/${params.id}`);
