/**
 * The MCP server card (experimental server-card extension, schema v1): identity, version and
 * the streamable HTTP remote. The card deliberately lists no tools; clients list them at runtime.
 */
import type { Catalogue } from '../catalogue/index.ts';
import { mcpEndpointUrl, mcpProtocolVersions, mcpServerName, mcpServerTitle, mcpServerVersion } from '../mcp/server-info.ts';

export const serverCardSchemaUrl = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

export function buildServerCard(catalogue: Catalogue) {
  return {
    $schema: serverCardSchemaUrl,
    name: mcpServerName(catalogue),
    title: mcpServerTitle(catalogue).slice(0, 100),
    version: mcpServerVersion,
    description: 'Read-only Himalayan treks, expeditions, live departures and an open peak dataset.',
    websiteUrl: `${catalogue.siteUrl}/developers`,
    remotes: [{ type: 'streamable-http' as const, url: mcpEndpointUrl(catalogue), supportedProtocolVersions: [...mcpProtocolVersions] }],
  };
}
