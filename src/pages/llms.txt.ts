/** llms.txt, built from the catalogue and the list of published files. */
import type { APIRoute } from 'astro';
import { buildLlmsTxt } from '../../service/agents/llms-txt.ts';
import { publishedFile } from '../../service/agents/published-file.ts';
import { getCatalogue } from '../lib/catalogue.ts';

export const GET: APIRoute = async () => publishedFile('/llms.txt', buildLlmsTxt(await getCatalogue()));
