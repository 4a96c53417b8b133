/** /v1/ (the service index), published as a file; see service/v1/static-answers.ts. */
import type { APIRoute } from 'astro';
import { staticAnswer } from '../../../service/v1/static-answers.ts';
import { getCatalogue } from '../../lib/catalogue.ts';

export const GET: APIRoute = async () => staticAnswer(await getCatalogue(), '/v1/');
