/**
 * The MCP App view as the built site serves it, through the Node host and the official v2 client
 * declaring the extension: the build wrote the view into its `live/mcp-app/`, the resource is that
 * document with the catalogue's data, and it is small. What the view's own markup, script, style
 * and data weigh is held to 20 KB gzipped; the whole document, with the ext-apps `App` class and
 * the MCP packages it is built on (the v2 client's protocol, zod and the MCP schemas), to 100 KB.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildView } from '../../scripts/mcp-app.ts';
import { departureSearchView, viewDataMarker, viewExtension } from '../../service/mcp/views.ts';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { builtSiteUrl } from './built-site.ts';

let server: InProcessServer;
let served: string;
const site = () => inject('fixtureSite');

beforeAll(async () => {
  server = await startInProcess(site(), { SITE_URL: builtSiteUrl(site()) });
  const client = new Client(
    { name: 'views-served', version: '1.0.0' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      capabilities: { extensions: { [viewExtension]: { mimeTypes: ['text/html;profile=mcp-app'] } } },
    },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  const read = await client.readResource({ uri: departureSearchView.uri });
  served = (read.contents[0] as { text: string }).text;
  await client.close();
});
afterAll(() => server?.stop());

const gzipped = (text: string) => gzipSync(text, { level: 9 }).length;
const dataBlock = /<script id="view-data" type="application\/json">.*?<\/script>/s;

describe('the departure view as served', () => {
  it("is the build's document with the catalogue's data in its one data block", () => {
    const built = path.join(site(), 'dist', 'live', 'mcp-app', 'departure-search.html');
    expect(existsSync(built)).toBe(true);
    const file = readFileSync(built, 'utf8');
    expect(file).toContain(viewDataMarker);
    expect(served.replace(dataBlock, viewDataMarker)).toBe(file);
    expect(served).toMatch(/^<!doctype html><html lang="en-IN">/);
    // Self-contained: no file of its own to load, from anywhere.
    expect(served).not.toMatch(/<(script|link|img|iframe)\b[^>]*\s(src|href)=/i);
  });

  it("weighs at most 20 KB gzipped for its own markup, script, style and data, and 100 KB with the SDK's App", async () => {
    const data = dataBlock.exec(served)?.[0] ?? '';
    const own = (await buildView('departure-search', { withoutSdk: true })).html.replace(viewDataMarker, () => data);
    expect(gzipped(own)).toBeLessThanOrEqual(20_000);
    expect(gzipped(served)).toBeLessThanOrEqual(100_000);
  });
});
