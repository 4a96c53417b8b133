/**
 * The MCP server card, in two forms built from the same values (service/mcp/server-info.ts):
 *   - the card as the server-card extension defines it (schema v1): identity, version and the
 *     streamable HTTP remote, and deliberately no capabilities or tools; served at
 *     `<endpoint>/server-card`, where that specification recommends;
 *   - the discovery card at `/.well-known/mcp/server-card(.json)`, where scanners probe: the same
 *     members plus the earlier proposal's `serverInfo`, `transport` and `capabilities`. It carries
 *     no `$schema`, because the extension's schema admits no members beyond its own.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { mcpCapabilities, mcpEndpointUrl, mcpProtocolVersions, mcpServerName, mcpServerTitle, mcpServerVersion } from '../mcp/server-info.ts';

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

export function buildDiscoveryServerCard(catalogue: Catalogue) {
  const { $schema: _schema, ...card } = buildServerCard(catalogue);
  return {
    ...card,
    serverInfo: { name: card.name, title: card.title, version: card.version },
    protocolVersion: mcpProtocolVersions[0],
    transport: { type: 'streamable-http' as const, endpoint: mcpEndpointUrl(catalogue) },
    capabilities: mcpCapabilities,
    serverCard: `${catalogue.siteUrl}/mcp/server-card`,
  };
}
