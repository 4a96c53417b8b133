/**
 * The MCP endpoint (/mcp) as one function of `Request`: Streamable HTTP, stateless, so it runs
 * as a serverless function. Every POST gets its own server and transport (a stateless SDK
 * transport cannot be reused); answers are plain JSON, never SSE streams. The endpoint's own
 * refusals (origin, size, protocol version, batch, quota) answer each request by its id.
 *
 * Protocol revisions: the SDK speaks the initialize-based revisions up to 2025-11-25. A
 * 2026-07-28 client opens with a stateless request carrying `MCP-Protocol-Version: 2026-07-28`;
 * it gets 400 with a generic JSON-RPC error (-32000, not a modern error code), which is how that
 * revision tells a client it reached an older server and should fall back to `initialize`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { V1Deps } from '../v1/operations.ts';
import { agentGuidance } from '../agents/guidance.ts';
import { readCappedBytes } from '../http/body.ts';
import { registerEnquiryTool, type McpEnquiries } from './enquiry-tool.ts';
import { jsonRpcError, rpcMessages } from './json-rpc.ts';
import { registerPrompts } from './prompts.ts';
import { checkQuota, type McpQuota } from './quota.ts';
import { isOwnOrigin } from '../rules/site-origin.ts';
import { registerResources } from './resources.ts';
import { mcpCapabilities, mcpProtocolVersions, mcpServerName, mcpServerTitle, mcpServerVersion } from './server-info.ts';
import { registerTools } from './tools.ts';

/** JSON-RPC messages here are small; anything bigger is not a tool call. */
const maxBodyBytes = 64 * 1024;

export interface McpDeps extends V1Deps {
  /** Where enquiries go (service/bookings); without it the server offers no enquiry tool. */
  enquiries?: McpEnquiries | undefined;
}

/** Browsers send Origin; only pages of the site itself may call the endpoint (DNS rebinding). */
export function originAllowed(origin: string | null, siteUrl: string): boolean {
  return origin === null || isOwnOrigin(origin, siteUrl);
}

function serverInstructions(deps: McpDeps): string {
  const g = agentGuidance(deps.catalogue);
  return [
    `Catalogue of ${deps.catalogue.site.operatorName}: treks, expeditions, live departures and an open peak dataset, read-only.`,
    `Tools mirror ${g.serviceIndexUrl}; resources hold each trip as Markdown, each peak and the dataset.`,
    deps.enquiries ? 'One tool acts: send_enquiry passes a person\'s enquiry to the team, who call them back; nothing is booked.' : '',
    g.authoritativeSource.rule,
    `Peak data is CC-BY-4.0: cite "${deps.catalogue.attribution}".`,
    'Never send an enquiry for someone without their own details and explicit consent, and never invent dates, prices or seats.',
    `Full instructions: ${g.instructionsUrl}`,
  ]
    .filter(Boolean)
    .join(' ');
}

export function createMcpServer(deps: McpDeps): McpServer {
  const server = new McpServer(
    { name: mcpServerName(deps.catalogue), title: mcpServerTitle(deps.catalogue), version: mcpServerVersion, websiteUrl: `${deps.catalogue.siteUrl}/developers` },
    { instructions: serverInstructions(deps) },
  );
  registerTools(server, deps);
  if (deps.enquiries) registerEnquiryTool(server, deps.catalogue, deps.enquiries);
  registerResources(server, deps);
  registerPrompts(server, deps, { enquiries: deps.enquiries !== undefined });
  // Only what a stateless server honours (service/mcp/server-info.ts), over the SDK's defaults.
  server.server.registerCapabilities(mcpCapabilities);
  return server;
}

/**
 * Answers one POST of JSON-RPC messages. With `quota`, the messages count against the client's
 * API quota first (service/mcp/quota.ts); without it (a test, a local tool) nothing is counted.
 */
export async function handleMcp(request: Request, deps: McpDeps, quota?: McpQuota): Promise<Response> {
  if (request.method !== 'POST') {
    if (!originAllowed(request.headers.get('Origin'), deps.catalogue.siteUrl)) return forbidden();
    // No standalone SSE stream (GET) and no sessions to end (DELETE): the server is stateless.
    return jsonRpcError(405, -32000, `Method not allowed: send JSON-RPC messages with POST (Streamable HTTP, stateless). Server card: ${deps.catalogue.siteUrl}/mcp/server-card`, undefined, {
      Allow: 'POST',
    });
  }
  const tooLarge = () => jsonRpcError(413, -32000, `Request body too large: at most ${maxBodyBytes} bytes.`);
  if (Number(request.headers.get('Content-Length') ?? '0') > maxBodyBytes) return tooLarge();
  const bytes = await readCappedBytes(request, maxBodyBytes);
  if (bytes === null) return tooLarge();
  const body = new TextDecoder().decode(bytes);
  const messages = rpcMessages(body);

  if (!originAllowed(request.headers.get('Origin'), deps.catalogue.siteUrl)) return forbidden(messages);
  const version = request.headers.get('MCP-Protocol-Version');
  if (version !== null && !mcpProtocolVersions.includes(version)) {
    return jsonRpcError(400, -32000, `Bad Request: unsupported protocol version ${version.slice(0, 40)}; this server speaks ${mcpProtocolVersions.join(', ')}. Start with initialize.`, messages);
  }
  let limitHeaders: Record<string, string> = {};
  if (quota) {
    const decision = await checkQuota(quota, messages.count);
    if (!decision.allowed) return jsonRpcError(decision.status, -32000, decision.message, messages, decision.headers);
    limitHeaders = decision.headers;
  }

  const server = createMcpServer(deps);
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true, maxRequestBodySize: maxBodyBytes });
  try {
    await server.connect(transport);
    const response = await transport.handleRequest(new Request(request.url, { method: 'POST', headers: request.headers, body: bytes as Uint8Array<ArrayBuffer> }));
    response.headers.set('Cache-Control', 'no-store');
    for (const [name, value] of Object.entries(limitHeaders)) response.headers.set(name, value);
    return response;
  } finally {
    await server.close();
  }
}

function forbidden(messages?: ReturnType<typeof rpcMessages>): Response {
  return jsonRpcError(403, -32000, 'Forbidden: this MCP endpoint only accepts requests without an Origin or from the site itself.', messages);
}
