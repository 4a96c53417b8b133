/**
 * The MCP resources: each trip's Markdown twin (with live departures) at the twin's address,
 * the full peak dataset and the agent instructions, written by the same functions as the
 * published files.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { agentInstructionsMarkdown } from '../agents/guidance.ts';
import { buildPeakDataset } from '../agents/peak-dataset.ts';
import { readLiveDepartures } from '../departures/live.ts';
import { tripMarkdown } from '../markdown/trip.ts';
import type { V1Deps } from '../v1/operations.ts';

function text(uri: URL, mimeType: string, body: string) {
  return { contents: [{ uri: uri.href, mimeType, text: body }] };
}

export function registerResources(server: McpServer, deps: V1Deps): void {
  const { catalogue } = deps;
  for (const page of catalogue.trips) {
    const { trip } = page;
    server.registerResource(
      `trip-${trip.slug}`,
      trip.markdownUrl,
      { title: trip.name, description: trip.shortAnswer ?? trip.description, mimeType: 'text/markdown' },
      async (uri) => {
        const live = await readLiveDepartures(deps.departures, catalogue, { tripSlug: trip.slug, timeoutMs: deps.storageTimeoutMs ?? 3000 });
        return text(uri, 'text/markdown', tripMarkdown(catalogue, page, live));
      },
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
