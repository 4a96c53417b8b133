/** The MCP server card at /mcp/server-card.json, the contract's published file: the same document as /mcp/server-card. */
import type { APIRoute } from 'astro';
import { publishedJson } from '../../../service/agents/published-file.ts';
import { buildServerCard } from '../../../service/agents/server-card.ts';
import { getCatalogue } from '../../lib/catalogue.ts';

export const GET: APIRoute = async () => publishedJson('/mcp/server-card.json', buildServerCard(await getCatalogue()));
