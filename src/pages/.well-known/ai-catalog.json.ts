/** /.well-known/ai-catalog.json: the same AI catalog as /ai-catalog.json, where discovery looks for it. */
import type { APIRoute } from 'astro';
import { buildAiCatalog } from '../../../service/agents/ai-catalog.ts';
import { publishedJson } from '../../../service/agents/published-file.ts';
import { getCatalogue } from '../../lib/catalogue.ts';

export const GET: APIRoute = async () =>
  publishedJson('/.well-known/ai-catalog.json', buildAiCatalog(await getCatalogue()));
