/** The MCP server card; the same document is served at /mcp/server-card, /mcp/server-card.json and /.well-known/mcp/server-card.json. */
import type { APIRoute } from 'astro';
import { publishedJson } from '../../../../service/agents/published-file.ts';
import { buildServerCard } from '../../../../service/agents/server-card.ts';
import { getCatalogue } from '../../../lib/catalogue.ts';

export const GET: APIRoute = async () => publishedJson('/.well-known/mcp/server-card.json', buildServerCard(await getCatalogue()));
