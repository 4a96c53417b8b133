/**
 * The official SDK client against /mcp on the local server: it connects (initialize flow),
 * lists tools and resources, calls every tool and gets the same data as the /v1 endpoint the
 * tool mirrors.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { InProcessServer } from '../helpers/in-process.ts';
import { startBuiltSite } from './built-site.ts';

let server: InProcessServer;
let client: Client;

beforeAll(async () => {
  server = await startBuiltSite(inject('fixtureSite'));
  client = new Client({ name: 'catalogue-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
});
afterAll(async () => {
  await client?.close();
  await server?.stop();
});

async function v1(pathAndQuery: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.url}/v1${pathAndQuery}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('MCP server on the local server', () => {
  it('introduces itself as the server card does', async () => {
    const card = (await (await fetch(`${server.url}/mcp/server-card`)).json()) as { name: string; version: string };
    expect(client.getServerVersion()).toMatchObject({ name: card.name, version: card.version });
    expect(client.getServerCapabilities()).toEqual({
      tools: { listChanged: false },
      resources: { listChanged: false },
      prompts: { listChanged: false },
      completions: {},
    });
  });

  it('lists the five read-only tools and the enquiry tool, which acts', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'get_peak',
      'get_trip',
      'list_departures',
      'list_peaks',
      'list_trips',
      'send_enquiry',
    ]);
    expect(tools.filter((t) => t.annotations?.readOnlyHint === true).map((t) => t.name)).not.toContain('send_enquiry');
    expect(tools.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name)).toEqual(['send_enquiry']);
  });

  const calls: [string, Record<string, unknown>, string][] = [
    ['list_trips', {}, '/trips'],
    [
      'list_trips',
      { type: 'trek', difficulty: 'Moderate', maxPriceInr: 20000 },
      '/trips?type=trek&difficulty=Moderate&maxPriceInr=20000',
    ],
    ['list_trips', { region: 'ladakh' }, '/trips?region=ladakh'],
    ['get_trip', { slug: 'sample-expedition' }, '/trips/sample-expedition'],
    ['list_departures', {}, '/departures'],
    ['list_departures', { trip: 'sample-trek' }, '/departures?trip=sample-trek'],
    ['list_peaks', {}, '/peaks'],
    ['list_peaks', { openPeak: true, maxAltitudeM: 6500 }, '/peaks?openPeak=true&maxAltitudeM=6500'],
    [
      'list_peaks',
      { operatorOperated: false, firstSixThousanderCandidate: false },
      '/peaks?operatorOperated=false&firstSixThousanderCandidate=false',
    ],
    ['get_peak', { id: 'sample-peak' }, '/peaks/sample-peak'],
  ];

  it.each(calls)('%s %j returns what GET /v1%s returns', async (name, args, apiPath) => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError ?? false).toBe(false);
    const api = await v1(apiPath);
    expect(api.status).toBe(200);
    expect(result.structuredContent).toEqual(api.body);
    const text = (result.content as { type: string; text: string }[])[0];
    expect(text?.type).toBe('text');
    expect(text?.text.length).toBeGreaterThan(20);
  });

  it('reports a missing trip or peak with the same error code as /v1', async () => {
    for (const [name, args, apiPath, code] of [
      ['get_trip', { slug: 'no-such-trip' }, '/trips/no-such-trip', 'trip_not_found'],
      ['get_peak', { id: 'no-such-peak' }, '/peaks/no-such-peak', 'peak_not_found'],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain(code);
      const api = await v1(apiPath);
      expect(api.status).toBe(404);
      expect(api.body).toMatchObject({ error: { code } });
    }
  });

  it('lists the trips as Markdown resources and the dataset as JSON, readable in full', async () => {
    const { resources } = await client.listResources();
    const trips = (await v1('/trips')).body.data as { name: string; markdownUrl: string }[];
    for (const trip of trips) {
      const resource = resources.find((r) => r.uri === trip.markdownUrl);
      expect(resource, trip.markdownUrl).toMatchObject({ mimeType: 'text/markdown', title: trip.name });
      const read = await client.readResource({ uri: trip.markdownUrl });
      const content = read.contents[0] as { text: string; mimeType: string };
      // The resource is the trip's Markdown twin, live departures included; only the reading time differs.
      const twin = await (await fetch(`${server.url}${new URL(trip.markdownUrl).pathname}`)).text();
      const withoutTime = (markdown: string) => markdown.replace(/^Read live at [^.]*\./m, 'Read live at <time>.');
      expect(withoutTime(content.text)).toBe(withoutTime(twin));
      expect(content.text).toContain('## Itinerary');
    }
    const dataset = resources.find((r) => r.uri.endsWith('/peak-data/peaks.json'));
    expect(dataset?.mimeType).toBe('application/json');
    const read = await client.readResource({ uri: dataset?.uri ?? '' });
    const served = await (await fetch(`${server.url}/peak-data/peaks.json`)).text();
    expect((read.contents[0] as { text: string }).text).toBe(served);
  });

  it('counts against the /v1 quota and says so in the rate-limit headers, with no session', async () => {
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-policy')).toBe('120;w=60');
    expect(Number(res.headers.get('ratelimit-remaining'))).toBeLessThan(120);
    expect(res.headers.get('mcp-session-id')).toBeNull();
  });
});
