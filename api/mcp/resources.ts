/**
 * The MCP resources: each trip as Markdown at its twin's address, the full peak dataset and the
 * agent instructions, written by the same functions as the published files.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Catalogue } from '../catalogue/index.ts';
import { agentInstructionsMarkdown } from '../agents/guidance.ts';
import { buildPeakDataset } from '../agents/peak-dataset.ts';
import { tripMarkdown } from '../agents/trip-markdown.ts';

function text(uri: URL, mimeType: string, body: string) {
  return { contents: [{ uri: uri.href, mimeType, text: body }] };
}

export function registerResources(server: McpServer, catalogue: Catalogue): void {
  for (const page of catalogue.trips) {
    const { trip } = page;
    server.registerResource(
      `trip-${trip.slug}`,
      trip.markdownUrl,
      { title: trip.name, description: trip.shortAnswer ?? trip.description, mimeType: 'text/markdown' },
      (uri) => text(uri, 'text/markdown', tripMarkdown(page, catalogue, 1)),
    );
  }
  server.registerResource(
    'peak-dataset',
    `${catalogue.siteUrl}/peak-data/peaks.json`,
    {
      title: `${catalogue.site.dataset.name} v${catalogue.site.dataset.version}`,
      description: `Every peak with coordinates, first ascent and references; CC-BY-4.0. Attribution: ${catalogue.attribution}`,
      mimeType: 'application/json',
    },
    (uri) => text(uri, 'application/json', `${JSON.stringify(buildPeakDataset(catalogue), null, 2)}\n`),
  );
  server.registerResource(
    'agent-instructions',
    `${catalogue.siteUrl}/agent-instructions.md`,
    { title: 'Agent instructions', description: 'How to use this catalogue, and what an agent must not do.', mimeType: 'text/markdown' },
    (uri) => text(uri, 'text/markdown', agentInstructionsMarkdown(catalogue)),
  );
}
