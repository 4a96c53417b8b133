/**
 * The initialize-based revisions (2025-11-25, 2025-06-18) on the official v2 server package: one
 * request, one fresh server on the package's streamable HTTP transport, stateless and answered
 * as plain JSON, as 2025 clients have always been answered here. This is the package's own
 * stateless idiom (its `legacyStatelessFallback`), with two settings it does not take: JSON
 * answers rather than an SSE stream, and the revisions this endpoint speaks.
 *
 * One code differs by revision. A `resources/read` of a resource that does not exist is -32002
 * in the 2025 revisions and -32602 in 2026-07-28; the package answers -32602 on every revision,
 * so this transport gives the 2025 requests it carries their own revision's code back.
 */
import {
  WebStandardStreamableHTTPServerTransport,
  type JSONRPCMessage,
  type McpServer,
} from '@modelcontextprotocol/server';

type SendOptions = Parameters<WebStandardStreamableHTTPServerTransport['send']>[1];

/** The 2025 revisions' code for "resource not found" (2026-07-28 made it -32602, Invalid Params). */
export const legacyResourceNotFound = -32002;

function isResourceNotFound(message: JSONRPCMessage): boolean {
  if (!('error' in message)) return false;
  const { code, data } = message.error;
  // The package's ResourceNotFoundError: -32602 whose data is exactly { uri }.
  return code === -32602 && typeof data === 'object' && data !== null && Object.keys(data).join() === 'uri';
}

class LegacyTransport extends WebStandardStreamableHTTPServerTransport {
  readonly #readIds: ReadonlySet<unknown>;
  constructor(
    readIds: ReadonlySet<unknown>,
    options: ConstructorParameters<typeof WebStandardStreamableHTTPServerTransport>[0],
  ) {
    super(options);
    this.#readIds = readIds;
  }
  override send(message: JSONRPCMessage, options?: SendOptions): Promise<void> {
    if ('id' in message && this.#readIds.has(message.id) && isResourceNotFound(message) && 'error' in message) {
      return super.send({ ...message, error: { ...message.error, code: legacyResourceNotFound } }, options);
    }
    return super.send(message, options);
  }
}

/** The ids of the `resources/read` requests in a parsed body. */
function resourceReadIds(body: unknown): Set<unknown> {
  const messages = Array.isArray(body) ? body : [body];
  return new Set(
    messages
      .filter((m) => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'resources/read')
      .map((m) => (m as { id?: unknown }).id),
  );
}

/** Answers one 2025-revision POST, whose body has already been read and parsed. */
export async function serveLegacy(
  request: Request,
  body: unknown,
  server: McpServer,
  settings: { maxRequestBodySize: number; protocolVersions: readonly string[] },
): Promise<Response> {
  const transport = new LegacyTransport(resourceReadIds(body), {
    enableJsonResponse: true,
    maxRequestBodySize: settings.maxRequestBodySize,
    supportedProtocolVersions: [...settings.protocolVersions],
  });
  try {
    await server.connect(transport);
    return await transport.handleRequest(request, { parsedBody: body });
  } finally {
    await server.close();
  }
}
