/**
 * The MCP handler as a function of Request, without a server: transport rules (methods, Origin,
 * protocol versions, body size) and the SDK client talking to it through an in-process fetch.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServerCard } from '../../service/agents/server-card.ts';
import { handleMcp } from '../../service/mcp/index.ts';
import { mcpCapabilities } from '../../service/mcp/server-info.ts';
import type { V1Deps } from '../../service/v1/operations.ts';
import { loadCatalogue } from '../helpers/content.ts';

const site = 'https://example.test';
const deps: V1Deps = { catalogue: loadCatalogue(undefined, site), departures: null };
const endpoint = `${site}/mcp`;
const jsonRpcHeaders = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

function initialize(headers: Record<string, string> = {}): Request {
  return new Request(endpoint, {
    method: 'POST',
    headers: { ...jsonRpcHeaders, ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1.0.0' } },
    }),
  });
}

describe('MCP endpoint transport rules', () => {
  it('answers GET and DELETE with 405 and Allow: POST (no SSE stream, no sessions)', async () => {
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const res = await handleMcp(new Request(endpoint, { method, headers: { Accept: 'text/event-stream' } }), deps);
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32000);
    }
  });

  it('refuses a page of another site (403) and answers the site itself and programs', async () => {
    const status = async (headers: Record<string, string>) => (await handleMcp(initialize(headers), deps)).status;
    expect(await status({ Origin: 'https://evil.example' })).toBe(403);
    expect(await status({ Origin: 'null' })).toBe(403);
    expect(await status({ Origin: 'https://example.test:8443' })).toBe(403);
    // A browser that leaves Origin out still says where its page was (service/http/browser-site.ts).
    expect(await status({ 'Sec-Fetch-Site': 'cross-site' })).toBe(403);
    expect(await status({ 'Sec-Fetch-Site': 'same-site' })).toBe(403);
    expect(await status({ Origin: site })).toBe(200);
    expect(await status({ Origin: site, 'Sec-Fetch-Site': 'same-origin' })).toBe(200);
    // MCP clients, curl and the conformance suite send no browser headers.
    expect(await status({})).toBe(200);
    const get = (headers: Record<string, string>) =>
      handleMcp(new Request(endpoint, { headers: { Accept: 'text/event-stream', ...headers } }), deps);
    expect((await get({ 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect((await get({ 'Sec-Fetch-Site': 'same-origin' })).status).toBe(405);
  });

  it("answers the loopback aliases of a loopback site's own origin, and refuses every other loopback page", async () => {
    for (const local of ['http://localhost:4321', 'http://127.0.0.1:4321', 'http://[::1]:4321']) {
      const localDeps: V1Deps = { catalogue: loadCatalogue(undefined, local), departures: null };
      const status = async (origin: string) => (await handleMcp(initialize({ Origin: origin }), localDeps)).status;
      for (const alias of ['http://localhost:4321', 'http://127.0.0.1:4321', 'http://[::1]:4321'])
        expect(await status(alias), `${alias} on ${local}`).toBe(200);
      for (const other of [
        'http://localhost:4322',
        'https://localhost:4321',
        'http://evil.example.com:4321',
        'http://127.0.0.2:4321',
        'http://localhost.evil.example:4321',
      ])
        expect(await status(other), `${other} on ${local}`).toBe(403);
    }
    // A site on a public name has no aliases: loopback pages are not the site.
    expect((await handleMcp(initialize({ Origin: 'http://localhost:4321' }), deps)).status).toBe(403);
  });

  it('answers initialize statelessly with JSON, the card identity and instructions', async () => {
    const res = await handleMcp(initialize(), deps);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const body = (await res.json()) as {
      result: { protocolVersion: string; serverInfo: { name: string; version: string }; instructions: string };
    };
    expect(body.result.protocolVersion).toBe('2025-11-25');
    const card = buildServerCard(deps.catalogue);
    expect(body.result.serverInfo).toMatchObject({ name: card.name, version: card.version });
    expect(body.result.instructions).toMatch(/explicit consent/);
    // Only what a stateless server honours: it can never send a list-changed notification.
    expect((body.result as unknown as { capabilities: unknown }).capabilities).toEqual(mcpCapabilities);
    expect(JSON.stringify(mcpCapabilities)).not.toContain('"listChanged":true');
  });

  it('names the request in every refusal it can read one from, one error per request of a batch', async () => {
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      handleMcp(
        new Request(endpoint, {
          method: 'POST',
          headers: { ...jsonRpcHeaders, ...headers },
          body: JSON.stringify(body),
        }),
        deps,
      );
    const call = (id: string | number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
    const foreign = await post(call('a-1'), { Origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ jsonrpc: '2.0', id: 'a-1', error: { code: -32000 } });
    const version = await post(call(7), { 'MCP-Protocol-Version': '1999-01-01' });
    expect(version.status).toBe(400);
    expect(await version.json()).toMatchObject({ id: 7 });
    const batch = await post([call(1), { jsonrpc: '2.0', method: 'notifications/initialized' }, call(2)], {
      Origin: 'https://evil.example',
    });
    expect(((await batch.json()) as { id: number }[]).map((e) => e.id)).toEqual([1, 2]);
    // No id to name: a body that is not JSON-RPC, or one too large to read.
    expect(await (await post('{nope', { Origin: 'https://evil.example' })).json()).toMatchObject({ id: null });
  });

  it('refuses a JSON-RPC batch as JSON-RPC does (-32600 Invalid Request), answering each request by its id', async () => {
    // No revision spoken here has batches (2025-06-18 took them out), so even a batch of one is refused.
    for (const body of [
      [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }],
      [
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { jsonrpc: '2.0', id: 'b', method: 'ping' },
      ],
    ]) {
      const res = await handleMcp(
        new Request(endpoint, {
          method: 'POST',
          headers: { ...jsonRpcHeaders, 'MCP-Protocol-Version': '2025-11-25' },
          body: JSON.stringify(body),
        }),
        deps,
      );
      expect(res.status).toBe(400);
      const errors = (await res.json()) as { id: unknown; error: { code: number } }[];
      expect(errors.map((e) => e.id)).toEqual(body.map((m) => m.id));
      for (const e of errors) expect(e.error.code).toBe(-32600);
    }
  });

  it('answers a 2026-07-28 server/discover with its revision, capabilities and cache hint, and no session', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const res = await handleMcp(
      new Request(endpoint, {
        method: 'POST',
        headers: { ...jsonRpcHeaders, 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'server/discover' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } }),
      }),
      deps,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const body = (await res.json()) as {
      result: { supportedVersions: string[]; capabilities: unknown; ttlMs: number; cacheScope: string };
    };
    expect(body.result.supportedVersions).toEqual(['2026-07-28']);
    expect(body.result.capabilities).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    expect(body.result).toMatchObject({ ttlMs: 300_000, cacheScope: 'public' });
  });

  it("holds 2026-07-28 requests to the revision's header rules (-32020) and versions (-32022)", async () => {
    const meta = (version: string) => ({
      'io.modelcontextprotocol/protocolVersion': version,
      'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    });
    const send = (version: string, headers: Record<string, string>) =>
      handleMcp(
        new Request(endpoint, {
          method: 'POST',
          headers: { ...jsonRpcHeaders, ...headers },
          body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: { _meta: meta(version) } }),
        }),
        deps,
      );
    // The header names another revision than the envelope.
    const mismatch = await send('2026-07-28', { 'MCP-Protocol-Version': '2025-11-25', 'Mcp-Method': 'tools/list' });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.json()).toMatchObject({ id: 9, error: { code: -32020 } });
    // Mcp-Method missing.
    const missing = await send('2026-07-28', { 'MCP-Protocol-Version': '2026-07-28' });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { code: number } }).error.code).toBe(-32020);
    // A revision after 2026-07-28 that this server does not speak.
    const future = await send('2099-01-01', { 'MCP-Protocol-Version': '2099-01-01', 'Mcp-Method': 'tools/list' });
    expect(future.status).toBe(400);
    expect(await future.json()).toMatchObject({ id: 9, error: { code: -32022, data: { supported: ['2026-07-28'] } } });
    // The initialize the 2025 revisions open with still works beside it.
    expect((await handleMcp(initialize(), deps)).status).toBe(200);
  });

  it('refuses oversized and malformed bodies with a defined answer', async () => {
    const big = await handleMcp(
      new Request(endpoint, { method: 'POST', headers: jsonRpcHeaders, body: 'x'.repeat(70_000) }),
      deps,
    );
    expect(big.status).toBe(413);
    const bad = await handleMcp(
      new Request(endpoint, { method: 'POST', headers: jsonRpcHeaders, body: '{nope' }),
      deps,
    );
    expect(bad.status).toBe(400);
    expect(await bad.clone().json()).toMatchObject({ id: null });
    expect(((await bad.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });
});

describe('MCP client in process', () => {
  let client: Client | undefined;
  afterEach(async () => client?.close());

  it('lists read-only tools with typed inputs and reports a missing store as the API does', async () => {
    client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(endpoint), {
        fetch: (url, init) => handleMcp(new Request(url, init), deps),
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'get_peak',
      'get_trip',
      'list_departures',
      'list_peaks',
      'list_trips',
    ]);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      expect(tool.outputSchema, tool.name).toBeDefined();
    }
    const listTrips = tools.find((t) => t.name === 'list_trips');
    // The JSON type of each filter, or the same text the query string takes (tests/agents/mcp-parity.test.ts).
    expect(listTrips?.inputSchema.properties).toMatchObject({
      type: { type: 'string', enum: ['trek', 'expedition'] },
      difficulty: { type: 'string', pattern: expect.stringContaining('[Ee][Aa][Ss][Yy]') },
      maxPriceInr: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'string' }] },
    });
    expect(tools.find((t) => t.name === 'list_peaks')?.inputSchema.properties).toMatchObject({
      openPeak: { anyOf: [{ type: 'boolean' }, { type: 'string', enum: ['true', 'false'] }] },
    });
    expect(tools.find((t) => t.name === 'get_trip')?.inputSchema.required).toEqual(['slug']);

    const departures = await client.callTool({ name: 'list_departures', arguments: {} });
    expect(departures.isError).toBe(true);
    expect(JSON.stringify(departures.content)).toContain('departures_unavailable');

    for (const args of [{ type: 'boat' }, { maxPriceInr: 0 }, { colour: 'red' }]) {
      const wrong = await client.callTool({ name: 'list_trips', arguments: args });
      expect(wrong.isError, JSON.stringify(args)).toBe(true);
    }
    expect((await client.callTool({ name: 'get_trip', arguments: { slug: 'Not A Slug' } })).isError).toBe(true);
  });
});
