/**
 * The MCP server card as the server-card extension defines it (schema v1), built from the values
 * the server itself announces (service/mcp/server-info.ts): identity, version and the streamable
 * HTTP remote with its protocol versions. Deliberately no capabilities, tools or prompts: the
 * extension leaves those to the protocol's own listing, and its schema admits no other members.
 * One document, served at every address in service/site-files.ts.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import {
  mcpEndpointUrl,
  mcpProtocolVersions,
  mcpServerName,
  mcpServerTitle,
  mcpServerVersion,
} from '../mcp/server-info.ts';

export const serverCardSchemaUrl = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

export function buildServerCard(catalogue: Catalogue) {
  return {
    $schema: serverCardSchemaUrl,
    name: mcpServerName(catalogue),
    title: mcpServerTitle(catalogue).slice(0, 100),
    version: mcpServerVersion,
    description: 'Himalayan treks, expeditions, live departures, open peak data; send a booking enquiry.',
    websiteUrl: `${catalogue.siteUrl}/developers`,
    remotes: [
      {
        type: 'streamable-http' as const,
        url: mcpEndpointUrl(catalogue),
        supportedProtocolVersions: [...mcpProtocolVersions],
      },
    ],
  };
}
