/**
 * The MCP endpoint (/mcp) as one function of `Request`: Streamable HTTP, stateless, so it runs
 * as a serverless function. Every POST gets its own server from one factory (createMcpServer),
 * on the official v2 server package, whichever revision it speaks:
 *
 * - 2026-07-28 (a `_meta` envelope on the request, `MCP-Protocol-Version`, `Mcp-Method` and
 *   `Mcp-Name` headers, `server/discover`, cache hints, -32020/-32022 errors): the package's
 *   `createMcpHandler`, which answers that revision and nothing else here;
 * - 2025-11-25 and 2025-06-18 (an `initialize` handshake, no envelope): the package's streamable
 *   HTTP transport, stateless, answering JSON (service/mcp/legacy-http.ts).
 *
 * Which is which is the package's own classification (`isLegacyRequest`). In front of both, the
 * endpoint's own refusals answer each request by its id (service/mcp/json-rpc.ts): origin,
 * method, size, parse errors, batches (no revision spoken here has them), protocol version, quota.
 * A client that says it shows MCP App views (each 2026-07-28 request, or a 2025 `initialize` and
 * the session id its answer gives) gets a server that offers the departure search as one
 * (service/mcp/views.ts); every other client, the same server as before.
 */
import { createMcpHandler, isLegacyRequest, McpServer } from '@modelcontextprotocol/server';
import type { V1Deps } from '../v1/operations.ts';
import { agentGuidance } from '../guidance/agent-guidance.ts';
import { readCappedBytes } from '../http/body.ts';
import { registerEnquiryTool, type McpEnquiries } from './enquiry-tool.ts';
import { jsonRpcError, rpcErrorCodes, rpcMessages, type RpcMessages } from './json-rpc.ts';
import { serveLegacy } from './legacy-http.ts';
import { senderOf } from '../http/browser-site.ts';
import { registerPrompts } from './prompts.ts';
import { checkQuota, type McpQuota } from './quota.ts';
import { registerResources, type ChangesFeed } from './resources.ts';
import {
  mcpCacheHints,
  mcpCapabilities,
  mcpProtocolVersions,
  mcpServerName,
  mcpServerTitle,
  mcpServerVersion,
} from './server-info.ts';
import { registerTools } from './tools.ts';
import {
  initializeShowingViews,
  legacyOffer,
  modernOffer,
  plainClient,
  registerViews,
  viewsSessionId,
  type ClientOffer,
  type ViewTemplates,
} from './views.ts';
import { cachePolicy } from '../http/cache-policy.ts';

/** JSON-RPC messages here are small; anything bigger is not a tool call. */
const maxBodyBytes = 64 * 1024;

export interface McpDeps extends V1Deps {
  /** Where enquiries go (service/bookings); without it the server offers no enquiry tool. */
  enquiries?: McpEnquiries | undefined;
  /** The MCP App views as the build made them (service/mcp/views.ts); without them no client is offered a view. */
  views?: ViewTemplates | undefined;
  /** A search's changes as JSON Feed (service/alerts/feeds.ts); without it the server offers no such resource. */
  changes?: ChangesFeed | undefined;
}

function serverInstructions(deps: McpDeps): string {
  const g = agentGuidance(deps.catalogue);
  return [
    `Catalogue of ${deps.catalogue.site.operatorName}: treks, expeditions, live departures and an open peak dataset, read-only.`,
    `Tools mirror ${g.serviceIndexUrl}; resources hold each trip as Markdown, each peak and the dataset.`,
    deps.enquiries
      ? "One tool acts: send_enquiry passes a person's enquiry to the team, who call them back; nothing is booked."
      : '',
    g.authoritativeSource.rule,
    `Peak data is CC-BY-4.0: cite "${deps.catalogue.attribution}".`,
    'Never send an enquiry for someone without their own details and explicit consent, and never invent dates, prices or seats.',
    `Full instructions: ${g.instructionsUrl}`,
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * The one definition of the server, for every revision: tools, resources, prompts, identity.
 * `offer` says whether the client shows MCP App views (service/mcp/views.ts): then the tools that
 * have one name it and the view is a resource too; otherwise nothing differs.
 */
function createMcpServer(deps: McpDeps, offer: ClientOffer = plainClient): McpServer {
  const views = offer.views && deps.views !== undefined ? deps.views : undefined;
  const server = new McpServer(
    {
      name: mcpServerName(deps.catalogue),
      title: mcpServerTitle(deps.catalogue),
      version: mcpServerVersion,
      websiteUrl: `${deps.catalogue.siteUrl}/developers`,
    },
    {
      instructions: serverInstructions(deps),
      // Only what a stateless server honours (service/mcp/server-info.ts), over the package's defaults.
      capabilities: { ...mcpCapabilities },
      supportedProtocolVersions: [...mcpProtocolVersions],
      cacheHints: mcpCacheHints,
    },
  );
  registerTools(server, deps, { views: views !== undefined });
  if (deps.enquiries) registerEnquiryTool(server, deps.catalogue, deps.enquiries);
  registerResources(server, deps, deps.changes);
  if (views) registerViews(server, deps.catalogue, views);
  registerPrompts(server, deps, { enquiries: deps.enquiries !== undefined });
  return server;
}

/**
 * Answers one POST: one JSON-RPC message. With `quota`, it counts against the client's API quota
 * first (service/mcp/quota.ts); without it (a test, a local tool) nothing is counted.
 */
export async function handleMcp(request: Request, deps: McpDeps, quota?: McpQuota): Promise<Response> {
  if (request.method !== 'POST') {
    if (senderOf(request, deps.catalogue.siteUrl) === 'another-site') return forbidden();
    // No standalone SSE stream (GET) and no sessions to end (DELETE): the server is stateless.
    return jsonRpcError(
      405,
      rpcErrorCodes.serverError,
      `Method not allowed: send JSON-RPC messages with POST (Streamable HTTP, stateless). Server card: ${deps.catalogue.siteUrl}/mcp/server-card`,
      undefined,
      {
        Allow: 'POST',
      },
    );
  }
  // Every POST counts once, as every /v1 request does, whatever is wrong with it: too large, from
  // an origin refused, not JSON. Counted before anything is read, so a refusal costs its sender too.
  const decision = quota ? await checkQuota(quota) : undefined;
  const limitHeaders = decision?.headers ?? {};
  const oversized = Number(request.headers.get('Content-Length') ?? '0') > maxBodyBytes;
  const bytes = oversized ? null : await readCappedBytes(request, maxBodyBytes);
  const messages = bytes === null ? undefined : rpcMessages(new TextDecoder().decode(bytes));
  if (decision && !decision.allowed)
    return jsonRpcError(decision.status, rpcErrorCodes.serverError, decision.message, messages, decision.headers);
  if (messages === undefined)
    return jsonRpcError(
      413,
      rpcErrorCodes.serverError,
      `Request body too large: at most ${maxBodyBytes} bytes.`,
      undefined,
      limitHeaders,
    );
  if (senderOf(request, deps.catalogue.siteUrl) === 'another-site')
    return withHeaders(forbidden(messages), limitHeaders);
  // The POST's Idempotency-Key is the enquiry tool's, as on POST /api/bookings.
  if (deps.enquiries)
    deps = { ...deps, enquiries: { ...deps.enquiries, idempotencyKey: request.headers.get('Idempotency-Key') } };
  const refused = (status: number, code: number, message: string) =>
    withHeaders(jsonRpcError(status, code, message, messages), limitHeaders);
  if (messages.parsed === undefined)
    return refused(400, rpcErrorCodes.parseError, 'Parse error: the body is not JSON.');
  if (messages.batch) {
    // JSON-RPC batches left MCP with 2025-06-18; none of the revisions spoken here has them.
    return refused(
      400,
      rpcErrorCodes.invalidRequest,
      `Invalid Request: JSON-RPC batches are not supported (protocol revisions ${mcpProtocolVersions.join(', ')}); send one message per POST.`,
    );
  }
  const version = request.headers.get('MCP-Protocol-Version');
  const legacy = await isLegacyRequest(request, messages.parsed, { maxRequestBodySize: maxBodyBytes });
  if (legacy && version !== null && !mcpProtocolVersions.includes(version)) {
    return refused(
      400,
      rpcErrorCodes.serverError,
      `Bad Request: unsupported protocol version ${version.slice(0, 40)}; this server speaks ${mcpProtocolVersions.join(', ')}.`,
    );
  }

  if (!legacy) {
    const response = await serveModern(request, messages.parsed, deps);
    return withHeaders(response, { 'Cache-Control': cachePolicy.never, ...limitHeaders });
  }
  // A 2025 client that shows views says so in initialize only: the answer gives it a session id
  // that says so for every later request (service/mcp/views.ts), where there is a view to offer.
  const declaresViews = deps.views !== undefined && initializeShowingViews(messages.parsed);
  const offer = declaresViews ? { views: true } : legacyOffer(request.headers.get('Mcp-Session-Id'));
  const response = await serveLegacy(request, messages.parsed, createMcpServer(deps, offer), {
    maxRequestBodySize: maxBodyBytes,
    protocolVersions: mcpProtocolVersions,
  });
  return withHeaders(response, {
    'Cache-Control': cachePolicy.never,
    ...limitHeaders,
    ...(declaresViews && response.ok ? { 'Mcp-Session-Id': viewsSessionId() } : {}),
  });
}

function withHeaders(response: Response, extra: Record<string, string>): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return new Response(response.body, { status: response.status, headers });
}

/** A 2026-07-28 request: the package's handler, for that revision only, with this request's server. */
async function serveModern(request: Request, body: unknown, deps: McpDeps): Promise<Response> {
  // Nothing outlives the exchange: the server is this request's, and no subscription is ever kept
  // open (there is nothing to listen to), so the handler is simply let go.
  const offer = modernOffer(body);
  const handler = createMcpHandler(() => createMcpServer(deps, offer), {
    legacy: 'reject',
    maxRequestBodySize: maxBodyBytes,
  });
  return handler.fetch(request, { parsedBody: body });
}

function forbidden(messages?: RpcMessages): Response {
  return jsonRpcError(
    403,
    rpcErrorCodes.serverError,
    'Forbidden: a page of another site sent this request; this MCP endpoint answers programs and the site itself.',
    messages,
  );
}
