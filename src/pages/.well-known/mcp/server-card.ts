/** The MCP discovery card (with capabilities) at /.well-known/mcp/server-card, where scanners probe; /mcp/server-card is the card its specification defines. */
import type { APIRoute } from 'astro';
import { publishedJson } from '../../../../service/agents/published-file.ts';
import { buildDiscoveryServerCard } from '../../../../service/agents/server-card.ts';
import { getCatalogue } from '../../../lib/catalogue.ts';

export const GET: APIRoute = async () => publishedJson('/.well-known/mcp/server-card', buildDiscoveryServerCard(await getCatalogue()));
