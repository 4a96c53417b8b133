/** The MCP server card as its specification defines it, at <endpoint>/server-card; the discovery card with capabilities is at /.well-known/mcp/server-card. */
import type { APIRoute } from 'astro';
import { publishedJson } from '../../../service/agents/published-file.ts';
import { buildServerCard } from '../../../service/agents/server-card.ts';
import { getCatalogue } from '../../lib/catalogue.ts';

export const GET: APIRoute = async () => publishedJson('/mcp/server-card', buildServerCard(await getCatalogue()));
