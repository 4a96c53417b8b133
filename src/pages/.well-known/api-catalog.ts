/** The RFC 9727 API catalog at its well-known location: the same document as /api-catalog. */
import type { APIRoute } from 'astro';
import { buildApiCatalog } from '../../../service/agents/api-catalog.ts';
import { publishedJson } from '../../../service/agents/published-file.ts';
import { getCatalogue } from '../../lib/catalogue.ts';

export const GET: APIRoute = async () =>
  publishedJson('/.well-known/api-catalog', buildApiCatalog(await getCatalogue()));
