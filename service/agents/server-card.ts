/**
 * The MCP server card as the server-card extension defines it (schema v1), built from the values
 * the server itself announces (service/mcp/server-info.ts): identity, version and the streamable
 * HTTP remote with its protocol versions. Deliberately no capabilities, tools or prompts: the
 * extension leaves those to the protocol's own listing, and its schema admits no other members
 * but `_meta`, the card's place for a server's own data, under the server's own reverse-DNS
 * prefix: there the card names the MCP App view (service/mcp/views.ts), the tools that show it,
 * what it calls through the host and the origins it may reach (none). One document, served at
 * every address in service/site-files.ts.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import {
  mcpEndpointUrl,
  mcpProtocolVersions,
  mcpServerName,
  mcpServerTitle,
  mcpServerVersion,
} from '../mcp/server-info.ts';
import { departureSearchView, toolViews, viewCsp, viewExtension } from '../mcp/views.ts';

const serverCardSchemaUrl = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

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
    _meta: { [`${mcpServerName(catalogue).split('/')[0]}/views`]: viewsOnCard() },
  };
}

/** The MCP App view as the card describes it: for whom, shown by which tools, calling what, reaching nothing. */
function viewsOnCard() {
  const view = departureSearchView;
  return {
    extension: viewExtension,
    offeredTo:
      "clients that declare the extension with the MIME type text/html;profile=mcp-app: on 2026-07-28 in each request's clientCapabilities, on 2025-11-25 and 2025-06-18 in initialize",
    views: [
      {
        uri: view.uri,
        mimeType: 'text/html;profile=mcp-app',
        title: view.title,
        description: view.description,
        shownBy: Object.keys(toolViews).filter((tool) => toolViews[tool] === view.uri),
        callsThroughHost: {
          list_departures: 'when the person changes a filter, and for the dates of the trip get_trip shows',
          send_enquiry: 'only when the person presses Send in its enquiry form',
        },
        csp: viewCsp,
      },
    ],
  };
}
