/**
 * The live functions' dependencies are values, as hono's apps are: a site is an instance (its
 * settings, counters and storage) and a build (its catalogue and frames), and each function is
 * made from the two by its entry in functions/. Two sites set up differently answer side by side
 * in one process, each by its own settings; two builds of one site answer from their own
 * catalogues (the enquiry checks and MCP's schemas included) and offer their own MCP App views, on
 * the instance they share; and the build a Vercel bundle carries gives the same catalogue as the
 * content the Node host reads, and its views as the build wrote them.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import bookings from '../../functions/bookings.ts';
import catalogue from '../../functions/catalogue.ts';
import mcp from '../../functions/mcp.ts';
import { readSettings } from '../../service/config.ts';
import { viewsReadBy } from '../../service/functions/built-views.ts';
import { liveInstance, type LiveInstance } from '../../service/functions/runtime.ts';
import { bundledBuild, frameMarkers, type SiteBuild } from '../../service/functions/site-build.ts';
import { catalogueFromContent } from '../../service/host/build-catalogue.ts';
import { liveShells, type LiveShellName } from '../../service/live-shells.ts';
import { MemoryCounterStore } from '../../service/rules/rate-limiter.ts';
import { departureSearchView, viewDataMarker, viewExtension } from '../../service/mcp/views.ts';
import type { Catalogue, CatalogueSource } from '../../domain/catalogue/index.ts';
import { fixtureContent, readContent } from '../helpers/content.ts';

const frame = `<!doctype html><html><head>${frameMarkers[0]}</head><body>${frameMarkers[1]}</body></html>`;
const frames = Object.fromEntries(Object.keys(liveShells).map((name) => [name, frame])) as Record<
  LiveShellName,
  string
>;

/** A built MCP App view that says which build made it. */
const viewOf = (id: string) =>
  `<!doctype html><html><head><title>Departure search of ${id}</title></head><body>${viewDataMarker}</body></html>`;

/** A site on these settings, storage off, counting in its own memory. */
function instanceOf(env: Record<string, string>): LiveInstance {
  const settings = readSettings({ OPERATIONAL_STORAGE: 'off', CONTENT_DIR: fixtureContent, ...env });
  const store = new MemoryCounterStore();
  return liveInstance({ settings: () => settings, counters: () => Promise.resolve(store) });
}

/** A build of `content` as the Node host opens one, for the instance's settings. */
function buildOf(id: string, content: string, instance: LiveInstance): SiteBuild {
  return {
    id,
    catalogue: () => catalogueFromContent(content, instance.settings()),
    frame: (name) => frames[name],
    views: viewsReadBy(() => viewOf(id)),
  };
}

/** The fixture content with one trip more. */
const grown = mkdtempSync(path.join(tmpdir(), 'catalogue-grown-'));
cpSync(fixtureContent, grown, { recursive: true });
writeFileSync(
  path.join(grown, 'trips', 'added-fixture-trek.md'),
  readFileSync(path.join(fixtureContent, 'trips', 'sample-trek.md'), 'utf8').replace(
    'name: Fixture Trek',
    'name: Added Fixture Trek',
  ),
);
afterAll(() => rmSync(grown, { recursive: true, force: true }));

const enquiry = (tripSlug: string) =>
  new Request('http://localhost/api/bookings', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Real-IP': '192.0.2.7' },
    body: JSON.stringify({ tripSlug, name: 'Asha Rao', phone: '+91 98765 43210', groupSize: 2 }),
  });

const mcpCall = (method: string, params: Record<string, unknown>) =>
  new Request('http://localhost/mcp', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-11-25',
      'X-Real-IP': '192.0.2.8',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });

describe('two sites in one process', () => {
  const sites = [
    { url: 'https://one.example', contact: 'desk@one.example' },
    { url: 'https://two.example', contact: 'desk@two.example' },
  ].map((site) => {
    const instance = instanceOf({ SITE_URL: site.url, CONTACT_EMAIL: site.contact });
    return { ...site, instance, build: buildOf('first', fixtureContent, instance) };
  });

  it('answer each by its own settings', async () => {
    for (const site of sites) {
      const answer = await catalogue(site.build).fetch(new Request(`${site.url}/v1/trips?type=trek`));
      const body = (await answer.json()) as { data: { url: string }[] };
      expect(body.data.length).toBeGreaterThan(0);
      expect(
        body.data.every((trip) => trip.url.startsWith(`${site.url}/`)),
        site.url,
      ).toBe(true);
      // Storage is off on both: the refusal names each site's own contact address.
      const refused = await bookings(site.build, site.instance).fetch(enquiry('sample-trek'));
      expect(await refused.text()).toContain(site.contact);
    }
  });
});

describe('two builds of one site', () => {
  const instance = instanceOf({ SITE_URL: 'https://one.example' });
  const before = buildOf('before', fixtureContent, instance);
  const after = buildOf('after', grown, instance);

  it('check enquiries against their own trips, on the instance they share', async () => {
    const old = await bookings(before, instance).fetch(enquiry('added-fixture-trek'));
    expect(old.status).toBe(400);
    expect(((await old.json()) as { error: { code: string } }).error.code).toBe('invalid_enquiry');
    // The new build's checks pass; storage is off, so the enquiry is then refused for that alone.
    const taken = await bookings(after, instance).fetch(enquiry('added-fixture-trek'));
    expect(((await taken.json()) as { error: { code: string } }).error.code).toBe('enquiries_unavailable');
    expect(taken.headers.get('X-Build')).toBe('after');
  });

  it("publish MCP's send_enquiry with their own trips", async () => {
    const trips = async (build: SiteBuild) => {
      const answer = await mcp(build, instance).fetch(mcpCall('tools/list', {}));
      const { result } = (await answer.json()) as {
        result: { tools: { name: string; inputSchema: { properties: { tripSlug: { enum?: string[] } } } }[] };
      };
      return result.tools.find((tool) => tool.name === 'send_enquiry')?.inputSchema.properties.tripSlug.enum;
    };
    expect(await trips(before)).not.toContain('added-fixture-trek');
    expect(await trips(after)).toContain('added-fixture-trek');
  });

  it('offer a client that shows views the MCP App view each made, filled with its own trips', async () => {
    const view = async (build: SiteBuild) => {
      const client = new Client(
        { name: 'views-test', version: '1.0.0' },
        {
          versionNegotiation: { mode: { pin: '2026-07-28' } },
          capabilities: { extensions: { [viewExtension]: { mimeTypes: ['text/html;profile=mcp-app'] } } },
        },
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL('https://one.example/mcp'), {
          fetch: (url, init) => mcp(build, instance).fetch(new Request(url, init)),
        }),
      );
      try {
        const read = await client.readResource({ uri: departureSearchView.uri });
        return (read.contents[0] as { text: string }).text;
      } finally {
        await client.close();
      }
    };
    const [old, made] = [await view(before), await view(after)];
    expect(old).toContain('Departure search of before');
    expect(old).not.toContain('Added Fixture Trek');
    expect(made).toContain('Departure search of after');
    expect(made).toContain('Added Fixture Trek');
  });
});

describe('the build a Vercel bundle carries', () => {
  const built = readSettings({ SITE_URL: 'https://one.example', CONTACT_EMAIL: 'desk@one.example' });
  // As a bundle carries it: JSON, parsed again.
  const carried = () => {
    const content = JSON.stringify(readContent(fixtureContent));
    return {
      catalogue: JSON.parse(JSON.stringify(catalogueFromContent(fixtureContent, built))) as Catalogue,
      madeWith: { siteUrl: built.siteUrl, contactEmail: built.CONTACT_EMAIL ?? null },
      content: () => JSON.parse(content) as CatalogueSource,
      frames,
      views: viewsReadBy((file) => (file === 'departure-search.html' ? viewOf('bundled') : '')),
    };
  };

  it('gives the catalogue the Node host reads from the same content, for the settings it was built with', () => {
    // The one the build made: its content is not read again.
    const build = bundledBuild(
      {
        ...carried(),
        content: () => {
          throw new Error('the content was read');
        },
      },
      () => built,
    );
    expect(build.catalogue()).toEqual(catalogueFromContent(fixtureContent, built));
    expect(build.catalogue().site.contactEmail).toBe('desk@one.example');
    expect(build.frame('page')).toBe(frame);
    expect(build.views.departureSearch()).toBe(viewOf('bundled'));
  });

  it("and a deployment's own, where its address or contact email is not the build's", () => {
    for (const env of [
      { SITE_URL: 'http://localhost:4321', CONTACT_EMAIL: 'desk@one.example' },
      { SITE_URL: 'https://one.example' },
    ]) {
      const settings = readSettings(env);
      const build = bundledBuild(carried(), () => settings);
      expect(build.catalogue()).toEqual(catalogueFromContent(fixtureContent, settings));
    }
  });
});
