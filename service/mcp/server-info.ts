/**
 * Who the MCP server says it is, shared by the server itself (initialize result) and the
 * server card, so the two never disagree.
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { Catalogue } from '../../domain/catalogue/index.ts';

/** Bumped when the tools or resources change shape. */
export const mcpServerVersion = '1.1.0';

/** The protocol revisions the SDK's initialize flow accepts (2025-11-25 and earlier). */
export const mcpProtocolVersions: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;

/** Reverse-DNS name of the canonical host plus one segment, e.g. `com.example/catalogue`. */
export function mcpServerName(catalogue: Catalogue): string {
  const host = new URL(catalogue.site.siteUrl).hostname.replace(/^www\./, '');
  return `${host.split('.').reverse().join('.')}/catalogue`;
}

export function mcpServerTitle(catalogue: Catalogue): string {
  return `${catalogue.site.operatorName} trek and expedition catalogue`;
}

export function mcpEndpointUrl(catalogue: Catalogue): string {
  return `${catalogue.siteUrl}/mcp`;
}

/**
 * What the server announces in its initialize result, and so what it honours. It is stateless
 * (a fresh server per POST, no session, no stream), so it can never send a list-changed
 * notification: `listChanged` is false. Completions complete the trip and peak templates and the
 * `enquire` prompt's trip. The SDK's McpServer would announce listChanged: true; createMcpServer
 * replaces that with these, and a test holds the initialize result to them.
 */
export const mcpCapabilities = {
  tools: { listChanged: false },
  resources: { listChanged: false },
  prompts: { listChanged: false },
  completions: {},
} as const;
