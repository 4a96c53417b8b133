/**
 * ai-catalog.json (AI Catalog 1.0): the API, the enquiry endpoint, the MCP server, the peak
 * dataset and each skill.
 * Entries carry both `type` (current revision) and `mediaType` (the first one) so readers of
 * either find the artifact's kind; identifiers use `urn:air:{domain}:{namespace}:{name}`.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { enquiryOpenApiPath, serverCardMediaType } from '../site-files.ts';
import { mcpServerTitle, mcpServerVersion } from '../mcp/server-info.ts';
import { skillPath, skillSummaries } from '../skill-list.ts';

export function buildAiCatalog(catalogue: Catalogue) {
  const site = catalogue.siteUrl;
  const domain = new URL(catalogue.site.siteUrl).hostname.replace(/^www\./, '');
  const { dataset, operatorName } = catalogue.site;
  const publisher = { displayName: operatorName, identifier: domain };
  const entry = (namespace: string, name: string, type: string, fields: Record<string, unknown>) => ({
    identifier: `urn:air:${domain}:${namespace}:${name}`,
    type,
    mediaType: type,
    ...fields,
    publisher,
  });
  return {
    specVersion: '1.0',
    host: { displayName: operatorName, identifier: domain, documentationUrl: `${site}/developers` },
    entries: [
      entry('api', 'catalogue-v1', 'application/vnd.oai.openapi+json;version=3.1', {
        displayName: catalogue.site.serviceName,
        description: 'Read-only JSON API: trips, live departures and the peak dataset. No key needed.',
        url: `${site}/openapi.json`,
        version: '1',
        tags: ['api', 'openapi', 'travel', 'himalaya'],
      }),
      entry('api', 'booking-enquiries', 'application/vnd.oai.openapi+json;version=3.1', {
        displayName: 'Booking enquiries',
        description:
          "POST /api/bookings: send a person's booking enquiry, with their consent; a guide calls them back. Nothing is booked.",
        url: `${site}${enquiryOpenApiPath}`,
        version: '1',
        tags: ['api', 'openapi', 'enquiry', 'action'],
      }),
      entry('mcp', 'catalogue', serverCardMediaType, {
        // The card carries its own title; repeated here for readers of the first revision, where displayName was required.
        displayName: mcpServerTitle(catalogue),
        url: `${site}/mcp/server-card`,
        version: mcpServerVersion,
        tags: ['mcp', 'streamable-http', 'enquiry'],
      }),
      entry('dataset', 'indian-himalayan-peaks', 'application/json', {
        displayName: dataset.name,
        description: `${catalogue.peaks.length} Indian Himalayan climbing peaks with grade, royalty and references. ${dataset.license}.`,
        url: `${site}/peak-data/peaks.json`,
        version: dataset.version,
        updatedAt: `${dataset.lastUpdated}T00:00:00Z`,
        tags: ['dataset', 'mountaineering', dataset.license],
      }),
      ...skillSummaries.map((skill) =>
        entry('skill', skill.name, 'application/agent-skills+md', {
          displayName: skill.name,
          description: skill.description,
          url: `${site}${skillPath(skill.name)}`,
          tags: ['agent-skill'],
        }),
      ),
    ],
  };
}
