/**
 * The RFC 9727 API catalog: a linkset (RFC 9264) whose first context is the API root, with
 * the RFC 8631 relations to its description, documentation, metadata and status; the second is
 * the booking enquiry endpoint (outside /v1, with its own OpenAPI document); the third points an
 * agent at the MCP endpoint that serves the same operations and the enquiry; the fourth lists
 * the files of the open peak dataset.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { enquiryOpenApiPath, serverCardMediaType } from '../site-files.ts';
import { peakDataDir, peakDataFileList, peakDataFiles } from '../../domain/catalogue/peak-data-files.ts';

export function buildApiCatalog(catalogue: Catalogue) {
  const site = catalogue.siteUrl;
  return {
    linkset: [
      {
        anchor: `${site}/v1`,
        'service-desc': [{ href: `${site}/openapi.json`, type: 'application/json' }],
        'service-doc': [{ href: `${site}/developers`, type: 'text/html' }],
        'service-meta': [
          { href: `${site}/v1/`, type: 'application/json' },
          { href: `${site}/llms.txt`, type: 'text/plain' },
        ],
        status: [{ href: `${site}/v1/`, type: 'application/json' }],
      },
      {
        anchor: `${site}/api/bookings`,
        'service-desc': [{ href: `${site}${enquiryOpenApiPath}`, type: 'application/json' }],
        'service-doc': [
          { href: `${site}/agent-instructions.md`, type: 'text/markdown' },
          { href: `${site}/developers`, type: 'text/html' },
        ],
      },
      {
        anchor: `${site}/mcp`,
        'service-desc': [{ href: `${site}/mcp/server-card`, type: serverCardMediaType }],
        'service-doc': [{ href: `${site}/agent-instructions.md`, type: 'text/markdown' }],
      },
      // The open peak dataset: each of its files (RFC 6573 item), its Data Package and its licence.
      {
        anchor: `${site}${peakDataDir}`,
        item: peakDataFileList.map((file) => ({
          href: `${site}${file.path}`,
          type: file.mediaType,
          title: file.format,
        })),
        describedby: [{ href: `${site}${peakDataFiles.dataPackage.path}`, type: peakDataFiles.dataPackage.mediaType }],
        license: [{ href: catalogue.site.dataset.licenseUrl }],
        'service-doc': [{ href: `${site}${peakDataDir}`, type: 'text/html' }],
      },
    ],
  };
}
