/** The MCP server card at /.well-known/mcp/server-card.json, where scanners probe: the same document as /mcp/server-card. */
import type { APIRoute } from 'astro';
import { publishedJson } from '../../../../service/agents/published-file.ts';
import { buildServerCard } from '../../../../service/agents/server-card.ts';
import { getCatalogue } from '../../../lib/catalogue.ts';

export const GET: APIRoute = async () =>
  publishedJson('/.well-known/mcp/server-card.json', buildServerCard(await getCatalogue()));
