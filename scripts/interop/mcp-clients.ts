/**
 * The official MCP clients, one per protocol revision /mcp speaks: the v2 client
 * (`@modelcontextprotocol/client`) pinned to 2026-07-28, the SDK 1.x client on 2025-11-25 (what
 * most agents run today), and the v2 client on 2025-06-18. Each is the client as its users
 * configure it; the tests and `npm run interop` only choose the revision.
 */
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

export const revisions = ['2026-07-28', '2025-11-25', '2025-06-18'] as const;
export type Revision = (typeof revisions)[number];

type Content = { type: string; text?: string; uri?: string; mimeType?: string };

/** What the tests ask of a client; both SDKs' clients answer it. */
export interface McpClient {
  listTools(): Promise<{
    tools: { name: string; inputSchema: Record<string, unknown>; annotations?: { readOnlyHint?: boolean } }[];
  }>;
  callTool(params: {
    name: string;
    arguments: Record<string, unknown>;
  }): Promise<{ isError?: boolean; structuredContent?: unknown; content: Content[] }>;
  listResources(): Promise<{ resources: { uri: string; name: string; title?: string; mimeType?: string }[] }>;
  listResourceTemplates(): Promise<{ resourceTemplates: { uriTemplate: string; name: string }[] }>;
  readResource(params: { uri: string }): Promise<{ contents: { uri: string; mimeType?: string; text?: string }[] }>;
  listPrompts(): Promise<{ prompts: { name: string; arguments?: { name: string; required?: boolean }[] }[] }>;
  getPrompt(params: {
    name: string;
    arguments?: Record<string, string>;
  }): Promise<{ messages: { role: string; content: Content }[] }>;
  complete(params: {
    ref: { type: string; uri?: string; name?: string };
    argument: { name: string; value: string };
  }): Promise<{ completion: { values: string[] } }>;
  close(): Promise<void>;
}

export interface Connected {
  client: McpClient;
  /** The revision the connection speaks, as the client reports it. */
  negotiated: string | undefined;
}

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Connects the official client for `revision` to `url`, over `fetch` when given (in process), with `headers` on every request. */
export async function connect(
  revision: Revision,
  url: string,
  options: { fetch?: Fetch; headers?: Record<string, string> } = {},
): Promise<Connected> {
  const info = { name: `catalogue-tests-${revision}`, version: '1.0.0' };
  const transportOptions = {
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.headers ? { requestInit: { headers: options.headers } } : {}),
  };
  if (revision === '2025-11-25') {
    const client = new SdkClient(info);
    const transport = new SdkTransport(new URL(url), transportOptions);
    await client.connect(transport);
    return { client: client as unknown as McpClient, negotiated: transport.protocolVersion };
  }
  const client =
    revision === '2026-07-28'
      ? new Client(info, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
      : // The 2025 handshake offers the first 2025 revision of the list.
        new Client(info, { supportedProtocolVersions: [revision] });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), transportOptions));
  return { client: client as unknown as McpClient, negotiated: client.getNegotiatedProtocolVersion() };
}
