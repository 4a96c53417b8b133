/**
 * A web chat client's host side of MCP Apps, in the page (bundled by ./index.ts): the official v2
 * MCP client (`@modelcontextprotocol/client`), declaring the extension, and for each view the
 * official `AppBridge` (`@modelcontextprotocol/ext-apps/app-bridge`) in front of the spec's
 * double frame: a sandbox proxy on another origin, which writes the view's HTML into its own
 * inner frame under the CSP the view declared. As a web host's backend would, the client reaches
 * the server through the test's process (`relayFetch`), never from the page: the page and the
 * view have no network of their own.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  AppBridge,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
  getToolUiResourceUri,
  type McpUiHostContext,
  type McpUiResourceCsp,
} from '@modelcontextprotocol/ext-apps/app-bridge';

interface RelayedResponse {
  status: number;
  headers: [string, string][];
  body: string;
}

declare global {
  interface Window {
    relayFetch(request: {
      url: string;
      method: string;
      headers: [string, string][];
      body: string | null;
    }): Promise<RelayedResponse>;
    host: typeof host;
  }
}

const hostInfo = { name: 'catalogue-test-host', version: '1.0.0' };
const extension = { 'io.modelcontextprotocol/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } };

async function relayedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const answer = await window.relayFetch({
    url: request.url,
    method: request.method,
    headers: [...request.headers],
    body: request.method === 'GET' || request.method === 'HEAD' ? null : await request.text(),
  });
  const empty = answer.status === 204 || answer.status === 304 || answer.body === '';
  return new Response(empty ? null : answer.body, { status: answer.status, headers: answer.headers });
}

let client: Client | undefined;
let bridge: AppBridge | undefined;
const events: { kind: string; detail: unknown }[] = [];

function connected(): Client {
  if (!client) throw new Error('the host is not connected');
  return client;
}

const host = {
  /** Connects to the server as a host that shows views, on `revision`. */
  async connect(url: string, revision: '2026-07-28' | '2025-11-25'): Promise<string | undefined> {
    const options =
      revision === '2026-07-28'
        ? { versionNegotiation: { mode: { pin: '2026-07-28' } } as const }
        : { supportedProtocolVersions: [revision] };
    client = new Client(hostInfo, { ...options, capabilities: { extensions: extension } });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: relayedFetch }));
    return client.getNegotiatedProtocolVersion();
  },

  async listTools() {
    const { tools } = await connected().listTools();
    return tools.map((tool) => ({
      name: tool.name,
      meta: tool._meta ?? null,
      view: getToolUiResourceUri(tool) ?? null,
    }));
  },

  async readView(uri: string) {
    const { contents } = await connected().readResource({ uri });
    const content = contents[0] as { mimeType?: string; text?: string; _meta?: { ui?: { csp?: McpUiResourceCsp } } };
    return {
      count: contents.length,
      mimeType: content.mimeType,
      html: content.text ?? '',
      meta: content._meta ?? null,
    };
  },

  /**
   * Calls `tool` as the model would, and shows its view for the call: reads the view, loads the
   * sandbox proxy with the declared CSP, connects the bridge, and hands the view the arguments
   * and the result once it has initialised.
   */
  async show(tool: string, args: Record<string, unknown>, context: McpUiHostContext): Promise<void> {
    const mcp = connected();
    const listed = (await mcp.listTools()).tools.find((t) => t.name === tool);
    const uri = listed && getToolUiResourceUri(listed);
    if (!uri) throw new Error(`${tool} names no view`);
    const result = mcp.callTool({ name: tool, arguments: args });
    const view = await host.readView(uri);
    if (view.mimeType !== RESOURCE_MIME_TYPE) throw new Error(`the view is ${view.mimeType}`);
    const csp = view.meta?.ui?.csp ?? {};

    const frame = document.createElement('iframe');
    frame.id = 'view';
    frame.title = 'Departure search';
    frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
    const sandboxReady = new Promise<void>((resolve) => {
      const listener = ({ source, data }: MessageEvent) => {
        if (
          source === frame.contentWindow &&
          (data as { method?: string })?.method === 'ui/notifications/sandbox-proxy-ready'
        ) {
          window.removeEventListener('message', listener);
          resolve();
        }
      };
      window.addEventListener('message', listener);
    });
    frame.src = `${document.body.dataset.sandbox}?csp=${encodeURIComponent(JSON.stringify(csp))}`;
    document.getElementById('conversation')!.append(frame);
    await sandboxReady;

    const capabilities = mcp.getServerCapabilities();
    bridge = new AppBridge(
      mcp,
      hostInfo,
      {
        openLinks: {},
        ...(capabilities?.tools ? { serverTools: {} } : {}),
        ...(capabilities?.resources ? { serverResources: {} } : {}),
        updateModelContext: { text: {} },
        logging: {},
      },
      { hostContext: context },
    );
    bridge.onopenlink = async ({ url }) => {
      events.push({ kind: 'open-link', detail: url });
      return {};
    };
    bridge.onupdatemodelcontext = async (params) => {
      events.push({ kind: 'model-context', detail: params });
      return {};
    };
    bridge.onloggingmessage = (params) => events.push({ kind: 'log', detail: params });
    bridge.onsizechange = ({ height }) => {
      if (height !== undefined) frame.style.height = `${height}px`;
    };
    const initialised = new Promise<void>((resolve) => {
      bridge!.oninitialized = () => resolve();
    });
    await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
    await bridge.sendSandboxResourceReady({ html: view.html, csp });
    await initialised;
    await bridge.sendToolInput({ arguments: args });
    await bridge.sendToolResult(await result);
  },

  /** A change of the host's look: theme, style variables, room. */
  async changeContext(context: McpUiHostContext): Promise<void> {
    if (!bridge) throw new Error('no view is shown');
    await bridge.sendHostContextChange(context);
  },

  events: () => events,
};

window.host = host;
