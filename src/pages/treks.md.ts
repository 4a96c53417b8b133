/** The trek index as Markdown. */
import type { APIRoute } from 'astro';
import { markdownResponse } from '../../service/markdown/response.ts';
import { tripIndexMarkdown } from '../components/trip-index.ts';
import { getCatalogue } from '../lib/catalogue.ts';

export const GET: APIRoute = async () => markdownResponse(tripIndexMarkdown(await getCatalogue(), 'trek'));
