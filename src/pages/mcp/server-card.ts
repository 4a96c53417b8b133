/** The MCP server card at <endpoint>/server-card, where its specification recommends (also at the addresses in service/site-files.ts). */
import type { APIRoute } from 'astro';
import { publishedJson } from '../../../service/agents/published-file.ts';
import { buildServerCard } from '../../../service/agents/server-card.ts';
import { getCatalogue } from '../../lib/catalogue.ts';

export const GET: APIRoute = async () => publishedJson('/mcp/server-card', buildServerCard(await getCatalogue()));
