/** The RFC 9727 API catalog at the site root (also at /.well-known/api-catalog). */
import type { APIRoute } from 'astro';
import { buildApiCatalog } from '../../service/agents/api-catalog.ts';
import { publishedJson } from '../../service/agents/published-file.ts';
import { getCatalogue } from '../lib/catalogue.ts';

export const GET: APIRoute = async () => publishedJson('/api-catalog', buildApiCatalog(await getCatalogue()));
