/**
 * A board search's changes as feeds, through the built fixture site with embedded storage: the
 * Atom feed read by a feed parser from npm (feedsmith) and held to RFC 4287's rules, the JSON Feed
 * validated against JSON Feed 1.1's schema (jsonfeed-schema, Ajv), both linked from the board,
 * the trip pages, departures.md and llms.txt, and the same changes, with the same ids, in Atom,
 * JSON Feed and the MCP resource whose address list_departures gives (the official MCP client).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { parseAtomFeed } from 'feedsmith';
import jsonFeedSchema from 'jsonfeed-schema/v1.1.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveSite } from '../departures/live-site.ts';

const live = liveSite('alert-feeds');
let client: Client;
const query = '?trip=sample-trek&minSeats=2';
/** The site's own address: the server runs without SITE_URL, so its links name localhost and its port. */
const site = () => `http://localhost:${new URL(live.server.url).port}`;

interface ApiDeparture {
  id: string;
  tripSlug: string;
  seatsLeft: number | null;
  seatsTotal: number | null;
  status: string;
}

beforeAll(async () => {
  client = new Client({ name: 'alert-feeds', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${live.server.url}/mcp`)));
  // Changes to find: a sold-out date opened, a date of the other trip opened (outside the search).
  const api = async (trip: string): Promise<ApiDeparture[]> =>
    (await (await fetch(`${live.server.url}/v1/departures?trip=${trip}`)).json()).data;
  const trek = (await api('sample-trek')).filter((d) => d.seatsTotal !== null);
  const [other] = await api('sample-expedition');
  for (const d of trek.slice(0, 2)) {
    await live.cli('update', d.id, '--seats-left', '0');
    expect((await live.cli('update', d.id, '--seats-left', String(d.seatsTotal))).code).toBe(0);
  }
  await live.cli('update', other!.id, '--seats-left', '0');
});
afterAll(() => client?.close());

const text = async (pathname: string) => {
  const res = await fetch(`${live.server.url}${pathname}`);
  return { res, body: await res.text() };
};

/** RFC 4287's rules a parser does not hold a feed to (sections 4.1.1, 4.1.2, 4.2.6, 3.3). */
function atomProblems(xml: string): string[] {
  const problems: string[] = [];
  const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
  const once = (scope: string, where: string, name: string) => {
    const count = (scope.match(new RegExp(`<${name}[\\s>]`, 'g')) ?? []).length;
    if (count !== 1) problems.push(`${where}: ${count} atom:${name} (exactly one is required)`);
  };
  if (!/^<\?xml version="1\.0" encoding="utf-8"\?>\s*<feed xmlns="http:\/\/www\.w3\.org\/2005\/Atom"/i.test(xml))
    problems.push('not an Atom document in the Atom namespace');
  const entries = [...xml.matchAll(/<entry>([\s\S]*?)<\/entry>/g)].map((m) => m[1]!);
  const head = xml.replace(/<entry>[\s\S]*?<\/entry>/g, '');
  for (const name of ['id', 'title', 'updated']) once(head, 'feed', name);
  if (!/<author>\s*<name>[^<]+<\/name>/.test(head)) problems.push('feed: no atom:author with a name');
  if (!/<link [^>]*rel="self"[^>]*>/.test(head)) problems.push('feed: no rel="self" link');
  entries.forEach((entry, i) => {
    for (const name of ['id', 'title', 'updated']) once(entry, `entry ${i}`, name);
    if ((entry.match(/<link [^>]*rel="alternate"/g) ?? []).length > 1) problems.push(`entry ${i}: two alternate links`);
    if (!/<link [^>]*href="http/.test(entry)) problems.push(`entry ${i}: no link`);
    if (!/<(summary|content)[\s>]/.test(entry)) problems.push(`entry ${i}: neither summary nor content`);
  });
  for (const [, date] of xml.matchAll(/<(?:updated|published)>([^<]*)</g))
    if (!rfc3339.test(date!)) problems.push(`not an RFC 3339 date: ${date}`);
  for (const [, id] of xml.matchAll(/<id>([^<]*)</g))
    if (!/^[a-z][a-z0-9+.-]*:\S+$/i.test(id!)) problems.push(`not an IRI: ${id}`);
  return problems;
}

describe("a search's changes as feeds", () => {
  it('as Atom (RFC 4287) and JSON Feed 1.1, valid, naming the board and its parameters', async () => {
    const atom = await text(`/departures/feed.atom${query}`);
    expect(atom.res.status).toBe(200);
    expect(atom.res.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const parsed = parseAtomFeed(atom.body);
    expect(atomProblems(atom.body)).toEqual([]);
    expect(parsed.id).toBe(`${site()}/departures/feed.atom${query}`);
    expect(parsed.links?.find((l) => l.rel === 'alternate')?.href).toBe(`${site()}/departures${query}`);

    const json = await text(`/departures/feed.json${query}`);
    expect(json.res.headers.get('content-type')).toBe('application/feed+json; charset=utf-8');
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const feed = JSON.parse(json.body);
    expect(ajv.validate(jsonFeedSchema, feed), ajv.errorsText()).toBe(true);
    expect(feed.feed_url).toBe(`${site()}/departures/feed.json${query}`);
    expect(feed.home_page_url).toBe(`${site()}/departures${query}`);

    // Only the search's departures, each change once, newest first: the two reopened dates' changes.
    const items = feed.items as { id: string; _departure_change: { trip_slug: string; kinds: string[] } }[];
    expect(items.length).toBeGreaterThanOrEqual(4);
    expect(items.every((i) => i._departure_change.trip_slug === 'sample-trek')).toBe(true);
    expect(items.slice(0, 4).map((i) => i._departure_change.kinds.includes('seats_opened'))).toEqual([
      true,
      false,
      true,
      false,
    ]);
    expect(parsed.entries?.map((e) => e.id)).toEqual(items.map((i) => i.id));
    // Stable: asked again, the same ids for the same changes.
    expect(
      JSON.parse((await text(`/departures/feed.json${query}`)).body).items.map((i: { id: string }) => i.id),
    ).toEqual(items.map((i) => i.id));
  });

  it('an empty search is every departure, and one that finds nothing is still a valid feed', async () => {
    const every = JSON.parse((await text('/departures/feed.json')).body);
    expect(
      every.items.some(
        (i: { _departure_change: { trip_slug: string } }) => i._departure_change.trip_slug !== 'sample-trek',
      ),
    ).toBe(true);
    const none = await text('/departures/feed.atom?minSeats=99');
    expect(none.res.status).toBe(200);
    expect(atomProblems(none.body)).toEqual([]);
    expect(parseAtomFeed(none.body).entries ?? []).toEqual([]);
  });

  it('linked as rel="alternate" from the board, a trip page, departures.md and llms.txt', async () => {
    const board = (await text(`/departures${query}`)).body;
    expect(board).toContain(`<link rel="alternate" type="application/atom+xml" title="Changes: `);
    expect(board).toContain(`href="/departures/feed.atom?trip=sample-trek&amp;minSeats=2">`);
    expect(board).toContain(`<link rel="alternate" type="application/feed+json"`);
    const trip = (await text('/treks/sample-trek')).body;
    expect(trip).toContain(
      '<link rel="alternate" type="application/atom+xml" title="Fixture Trek: departure changes (Atom)" href="/departures/feed.atom?trip=sample-trek">',
    );
    expect((await text(`/departures.md${query}`)).body).toContain(`${site()}/departures/feed.atom${query}`);
    // Built with the fixture's SITE_URL, as every static file is.
    expect((await text('/llms.txt')).body).toMatch(/\(http:\/\/[^/\s]+\/departures\/feed\.atom\)/);
  });

  it('the same changes, with the same ids, in Atom, JSON Feed and the MCP resource list_departures names', async () => {
    const answer = await client.callTool({ name: 'list_departures', arguments: { trip: 'sample-trek', minSeats: 2 } });
    const said = (answer.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
    const address = said.match(/(http:\/\/\S+?\/departures\/feed\.json\?\S+?)\s/)?.[1];
    expect(address).toBe(`${site()}/departures/feed.json${query}`);
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.name)).toContain('departure-changes');
    const read = await client.readResource({ uri: address! });
    const viaMcp = JSON.parse((read.contents[0] as { text: string }).text);
    const viaJson = JSON.parse((await text(`/departures/feed.json${query}`)).body);
    const viaAtom = parseAtomFeed((await text(`/departures/feed.atom${query}`)).body);
    const entries = (items: { id: string; title?: string; date_published?: string }[]) =>
      items.map((i) => ({ id: i.id, title: i.title }));
    expect(entries(viaMcp.items)).toEqual(entries(viaJson.items));
    // The Atom title is a text construct: its text is the same.
    const atomTitle = (title: unknown) =>
      typeof title === 'object' && title ? (title as { value: string }).value : title;
    expect((viaAtom.entries ?? []).map((e) => ({ id: e.id, title: atomTitle(e.title) }))).toEqual(
      entries(viaJson.items),
    );
    expect(viaMcp.items.length).toBeGreaterThan(0);
  });
});
