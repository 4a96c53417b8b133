/**
 * The MCP App view as the server offers it (service/mcp/views.ts), through the handler and the
 * official clients, in this process: a client that declares the extension is offered the view on
 * every revision (2026-07-28 in each request, the 2025 revisions in initialize, carried by the
 * session id the answer gives); a client that does not gets, byte for byte, the answers of a
 * server that has no view at all; the view's data is the catalogue's, written so that no value
 * can leave its JSON block; its filters are the departure search's; the server card names it.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { tripSearchFacts } from '../../domain/catalogue/trip-facts.ts';
import { buildServerCard } from '../../service/agents/server-card.ts';
import { searchFieldOrder, searchFields } from '../../service/departures/search-form.ts';
import { searchNames } from '../../service/departures/search.ts';
import { departureViewData } from '../../service/mcp/departure-view.ts';
import { handleMcp, type McpDeps } from '../../service/mcp/index.ts';
import { mcpServerName } from '../../service/mcp/server-info.ts';
import {
  departureSearchView,
  legacyOffer,
  modernOffer,
  viewCsp,
  viewDataMarker,
  viewDocument,
  viewExtension,
} from '../../service/mcp/views.ts';
import { loadCatalogue } from '../helpers/content.ts';

const site = 'https://example.test';
const catalogue = loadCatalogue(undefined, site);
/** A document with the one place for data the build leaves: what viewDocument is given. */
const template = `<!doctype html><html lang="en"><head><title>Departure search</title></head><body><main></main>${viewDataMarker}<script type="module">0</script></body></html>`;
const withView: McpDeps = { catalogue, departures: null, views: { departureSearch: () => template } };
const withoutView: McpDeps = { catalogue, departures: null };
const showsHtml = { extensions: { [viewExtension]: { mimeTypes: ['text/html;profile=mcp-app'] } } };
const revisions = ['2026-07-28', '2025-11-25', '2025-06-18'] as const;
type Revision = (typeof revisions)[number];

interface Exchange {
  status: number;
  sessionId: string | null;
  body: string;
}

/** The official client of `revision` (SDK 1.x for 2025-11-25, as agents run it) against `deps`, every answer recorded. */
async function connect(revision: Revision, deps: McpDeps, capabilities: object = {}) {
  const exchanges: Exchange[] = [];
  const fetchIn = async (url: string | URL, init?: RequestInit) => {
    const response = await handleMcp(new Request(url, init), deps);
    const body = await response.text();
    exchanges.push({ status: response.status, sessionId: response.headers.get('mcp-session-id'), body });
    return new Response(body || null, { status: response.status, headers: response.headers });
  };
  const url = new URL(`${site}/mcp`);
  if (revision === '2025-11-25') {
    const client = new SdkClient({ name: 'views-test', version: '1.0.0' }, { capabilities });
    await client.connect(new SdkTransport(url, { fetch: fetchIn }));
    return { client: client as unknown as Client, exchanges };
  }
  const client = new Client(
    { name: 'views-test', version: '1.0.0' },
    revision === '2026-07-28'
      ? { versionNegotiation: { mode: { pin: revision } }, capabilities }
      : { supportedProtocolVersions: [revision], capabilities },
  );
  await client.connect(new StreamableHTTPClientTransport(url, { fetch: fetchIn }));
  return { client, exchanges };
}

/** What a client reads of the server: every list, a tool call, and the view's address. */
async function readEverything(client: Client): Promise<string[]> {
  const seen = [
    JSON.stringify(await client.listTools()),
    JSON.stringify(await client.listResources()),
    JSON.stringify(await client.listResourceTemplates()),
    JSON.stringify(await client.listPrompts()),
    JSON.stringify(await client.callTool({ name: 'get_trip', arguments: { slug: 'sample-trek' } })),
  ];
  const read = await client.readResource({ uri: departureSearchView.uri }).then(
    (r) => JSON.stringify(r),
    (error: unknown) => `refused: ${error instanceof Error ? error.message : String(error)}`,
  );
  return [...seen, read];
}

describe.each(revisions)('MCP %s', (revision) => {
  it('gives a client without the extension byte for byte the answers of a server with no view', async () => {
    const plain = await connect(revision, withView);
    const before = await connect(revision, withoutView);
    const seen = await readEverything(plain.client);
    expect(seen).toEqual(await readEverything(before.client));
    expect(plain.exchanges).toEqual(before.exchanges);
    expect(plain.exchanges.every((e) => e.sessionId === null)).toBe(true);
    expect(seen.slice(0, -1).join('\n')).not.toContain('ui://');
    expect(seen.at(-1)).toMatch(/^refused: /);
    await plain.client.close();
    await before.client.close();
  });

  it('offers a client that shows HTML views the departure search on list_departures and get_trip, as a ui:// resource', async () => {
    const { client, exchanges } = await connect(revision, withView, showsHtml);
    if (revision !== '2026-07-28') expect(exchanges[0]?.sessionId).toMatch(/^mcp-app-views\./);
    const { tools } = await client.listTools();
    const named = tools.filter((t) => t._meta !== undefined);
    expect(named.map((t) => t.name).sort()).toEqual(['get_trip', 'list_departures']);
    for (const tool of named)
      expect(tool._meta).toEqual({
        ui: { resourceUri: departureSearchView.uri },
        'ui/resourceUri': departureSearchView.uri,
      });
    // The rest of each tool is the plain client's.
    const plain = await connect(revision, withoutView);
    expect(tools.map(({ _meta, ...rest }) => rest)).toEqual((await plain.client.listTools()).tools);

    const listed = (await client.listResources()).resources.find((r) => r.uri === departureSearchView.uri);
    expect(listed).toMatchObject({
      mimeType: 'text/html;profile=mcp-app',
      _meta: { ui: { csp: viewCsp, prefersBorder: true } },
    });
    const read = await client.readResource({ uri: departureSearchView.uri });
    expect(read.contents).toHaveLength(1);
    const content = read.contents[0] as { mimeType: string; text: string; _meta: unknown };
    expect(content.mimeType).toBe('text/html;profile=mcp-app');
    expect(content._meta).toEqual({ ui: { csp: viewCsp, prefersBorder: true } });
    expect(content.text).toBe(viewDocument(template, departureViewData(catalogue)));
    await client.close();
    await plain.client.close();
  });

  it('offers nothing to a client whose extension takes other types than HTML', async () => {
    const other = await connect(revision, withView, {
      extensions: { [viewExtension]: { mimeTypes: ['text/uri-list'] } },
    });
    const plain = await connect(revision, withoutView);
    expect(await readEverything(other.client)).toEqual(await readEverything(plain.client));
    await other.client.close();
    await plain.client.close();
  });
});

describe('how a client says it shows views', () => {
  it('on 2026-07-28, in the capabilities of each request; on a 2025 revision, by the session id its initialize got', () => {
    const request = (capabilities: unknown) => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { _meta: { 'io.modelcontextprotocol/clientCapabilities': capabilities } },
    });
    expect(modernOffer(request(showsHtml))).toEqual({ views: true });
    expect(modernOffer(request({}))).toEqual({ views: false });
    expect(modernOffer(request({ extensions: { [viewExtension]: {} } }))).toEqual({ views: false });
    expect(modernOffer({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toEqual({ views: false });
    expect(modernOffer('not an object')).toEqual({ views: false });
    expect(legacyOffer(null)).toEqual({ views: false });
    expect(legacyOffer('4f7c2a')).toEqual({ views: false });
    expect(legacyOffer('mcp-app-views.0b9e0d8e-3f7a-4b44-9a38-6c0c9a2b1f00')).toEqual({ views: true });
  });

  it('a server without a built view answers a client that declares the extension as any other', async () => {
    for (const revision of revisions) {
      const declaring = await connect(revision, withoutView, showsHtml);
      const plain = await connect(revision, withoutView);
      expect(await readEverything(declaring.client)).toEqual(await readEverything(plain.client));
      expect(declaring.exchanges.every((e) => e.sessionId === null)).toBe(true);
      await declaring.client.close();
      await plain.client.close();
    }
  });

  it('a made-up 2025 session id only offers the view, the same for everyone', async () => {
    const post = (sessionId: string) =>
      handleMcp(
        new Request(`${site}/mcp`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
            'MCP-Protocol-Version': '2025-11-25',
            'Mcp-Session-Id': sessionId,
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        }),
        withView,
      ).then((r) => r.text());
    expect(await post('any-other-id')).not.toContain('ui://');
    expect(await post('mcp-app-views.any')).toContain(departureSearchView.uri);
  });
});

describe("the view's document and data", () => {
  it('keeps every value of the data inside its JSON block, whatever it holds', () => {
    const data = departureViewData(catalogue);
    const hostile = { ...data, operatorName: '</script><script>alert(1)</script><!--' };
    const html = viewDocument(template, hostile);
    const start = html.indexOf('<script id="view-data" type="application/json">');
    const end = html.indexOf('</script>', start);
    const json = html.slice(start + '<script id="view-data" type="application/json">'.length, end);
    expect(json).not.toMatch(/<\/|<!--/);
    expect(JSON.parse(json)).toEqual(hostile);
    expect(html.slice(end)).toBe('</script><script type="module">0</script></body></html>');
    expect(() => viewDocument('<!doctype html><p>no place for data</p>', data)).toThrow(/no single place/);
  });

  it("shows the departure search's filters, each once, as the board's form shows them", () => {
    const data = departureViewData(catalogue);
    expect(data.filters.map((f) => f.name).sort()).toEqual([...searchNames].sort());
    expect(data.filters.map((f) => f.name)).toEqual([...searchFieldOrder]);
    expect(data.filters).toEqual(searchFieldOrder.map((name) => searchFields(catalogue)[name]));
    for (const page of catalogue.trips)
      expect(data.trips[page.trip.slug]).toMatchObject({
        name: page.trip.name,
        url: page.trip.url,
        facts: tripSearchFacts(page),
      });
  });

  it('is named on the server card, with the tools that show it and the origins it may reach (none)', () => {
    const card = buildServerCard(catalogue);
    expect(card._meta[`${mcpServerName(catalogue).split('/')[0]}/views`]).toMatchObject({
      extension: 'io.modelcontextprotocol/ui',
      views: [
        {
          uri: departureSearchView.uri,
          mimeType: 'text/html;profile=mcp-app',
          shownBy: ['list_departures', 'get_trip'],
          csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
        },
      ],
    });
  });
});
