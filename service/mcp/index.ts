/**
 * The MCP endpoint (/mcp) as one function of `Request`: Streamable HTTP, stateless, so it runs
 * as a serverless function. Every POST gets its own server and transport (a stateless SDK
 * transport cannot be reused); answers are plain JSON, never SSE streams.
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
import { registerResources } from './resources.ts';
import { mcpProtocolVersions, mcpServerName, mcpServerTitle, mcpServerVersion } from './server-info.ts';
import { registerTools } from './tools.ts';
import { checkQuota, messageCount, type McpQuota } from './quota.ts';
import { readCappedBytes } from '../http/body.ts';

/** JSON-RPC messages here are small; anything bigger is not a tool call. */
const maxBodyBytes = 64 * 1024;


function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });
}

/** Browsers send Origin; only pages of the site itself may call the endpoint (DNS rebinding). */
export function originAllowed(origin: string | null, siteUrl: string): boolean {
  if (origin === null) return true;
  try {
    return new URL(origin).origin === new URL(siteUrl).origin;
  } catch {
    return false;
  }
}

function serverInstructions(deps: V1Deps): string {
  const g = agentGuidance(deps.catalogue);
  return [
    `Read-only catalogue of ${deps.catalogue.site.operatorName}: treks, expeditions, live departures and an open peak dataset.`,
    `Tools mirror ${g.serviceIndexUrl}; resources hold each trip as Markdown and the dataset.`,
    g.authoritativeSource.rule,
    `Peak data is CC-BY-4.0: cite "${deps.catalogue.attribution}".`,
    'Never book or send an enquiry for someone without their explicit consent, and never invent dates, prices or seats.',
    `Full instructions: ${g.instructionsUrl}`,
  ].join(' ');
}

export function createMcpServer(deps: V1Deps): McpServer {
  const server = new McpServer(
    { name: mcpServerName(deps.catalogue), title: mcpServerTitle(deps.catalogue), version: mcpServerVersion, websiteUrl: `${deps.catalogue.siteUrl}/developers` },
    { instructions: serverInstructions(deps) },
  );
  registerTools(server, deps);
  registerResources(server, deps);
  return server;
}

/**
 * Answers one POST of JSON-RPC messages. With `quota`, the messages count against the client's
 * API quota first (service/mcp/quota.ts); without it (a test, a local tool) nothing is counted.
 */
export async function handleMcp(request: Request, deps: V1Deps, quota?: McpQuota): Promise<Response> {
  if (!originAllowed(request.headers.get('Origin'), deps.catalogue.siteUrl)) {
    return jsonRpcError(403, -32000, 'Forbidden: this MCP endpoint only accepts requests without an Origin or from the site itself.');
  }
  if (request.method !== 'POST') {
    // No standalone SSE stream (GET) and no sessions to end (DELETE): the server is stateless.
    return jsonRpcError(405, -32000, `Method not allowed: send JSON-RPC messages with POST (Streamable HTTP, stateless). Server card: ${deps.catalogue.siteUrl}/mcp/server-card`, {
      Allow: 'POST',
    });
  }
  const version = request.headers.get('MCP-Protocol-Version');
  if (version !== null && !mcpProtocolVersions.includes(version)) {
    return jsonRpcError(400, -32000, `Bad Request: unsupported protocol version ${version.slice(0, 40)}; this server speaks ${mcpProtocolVersions.join(', ')}. Start with initialize.`);
  }
  const declared = Number(request.headers.get('Content-Length') ?? '0');
  if (declared > maxBodyBytes) return jsonRpcError(413, -32000, `Request body too large: at most ${maxBodyBytes} bytes.`);
  let limitHeaders: Record<string, string> = {};
  if (quota) {
    const bytes = await readCappedBytes(request, maxBodyBytes);
    if (bytes === null) return jsonRpcError(413, -32000, `Request body too large: at most ${maxBodyBytes} bytes.`);
    const body = new TextDecoder().decode(bytes);
    const decision = await checkQuota(quota, messageCount(body));
    if (!decision.allowed) return jsonRpcError(decision.status, -32000, decision.message, decision.headers);
    limitHeaders = decision.headers;
    request = new Request(request.url, { method: request.method, headers: request.headers, body });
  }

  const server = createMcpServer(deps);
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true, maxRequestBodySize: maxBodyBytes });
  try {
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    response.headers.set('Cache-Control', 'no-store');
    for (const [name, value] of Object.entries(limitHeaders)) response.headers.set(name, value);
    return response;
  } finally {
    await server.close();
  }
}
