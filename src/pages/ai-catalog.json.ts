/** ai-catalog.json: the API, the MCP server, the peak dataset and the skills. */
import type { APIRoute } from 'astro';
import { buildAiCatalog } from '../../service/agents/ai-catalog.ts';
import { publishedJson } from '../../service/agents/published-file.ts';
import { getCatalogue } from '../lib/catalogue.ts';

export const GET: APIRoute = async () => publishedJson('/ai-catalog.json', buildAiCatalog(await getCatalogue()));
