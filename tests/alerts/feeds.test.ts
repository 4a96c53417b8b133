/**
 * A board search's changes as feeds, through the built fixture site with embedded storage: the
 * Atom feed validated against RFC 4287's RELAX NG grammar (Debian's rnc2rng and lxml) and read by a
 * feed parser from npm (feedsmith) for the rules a RELAX NG validator leaves out, the JSON Feed
 * validated against JSON Feed 1.1's schema (jsonfeed-schema, Ajv), both linked from the board,
 * the trip pages, departures.md and llms.txt, and the same changes, with the same ids, in Atom,
 * JSON Feed and the MCP resource whose address list_departures gives (the official MCP client).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { parseAtomFeed } from 'feedsmith';
import jsonFeedSchema from 'jsonfeed-schema/v1.1.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveSite } from '../departures/live-site.ts';
import { projectRoot } from '../helpers/project.ts';
import { pythonPath } from '../helpers/requirements.ts';

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

/**
 * RFC 4287's own grammar (Appendix B, tests/fixtures/atom-rfc4287.rnc) held to the document by
 * Debian's Python: rnc2rng turns the compact syntax into RELAX NG's XML and lxml (libxml2)
 * validates. rnc2rng writes the grammar's `namespace local = ""` as `xmlns:local=""`, which XML 1.0
 * refuses; its output names that namespace as `ns=""` and never uses the prefix, so the declaration
 * is left out. Resolves to the validator's messages, '' when the document is valid.
 */
const validatorScript = `
import re, sys, rnc2rng
from lxml import etree
rng = rnc2rng.dumps(rnc2rng.load(sys.argv[1]))
rng, undeclared = re.subn(r'\\s+xmlns:local=""', "", rng)
assert undeclared == 1, "rnc2rng's output changed: look at its namespace declarations again"
schema = etree.RelaxNG(etree.fromstring(rng.encode()))
if not schema.validate(etree.fromstring(sys.stdin.buffer.read())):
    sys.exit("\\n".join(f"line {e.line}: {e.message}" for e in schema.error_log))
`;
function atomSchemaErrors(xml: string): Promise<string> {
  const schema = path.join(projectRoot, 'tests', 'fixtures', 'atom-rfc4287.rnc');
  return new Promise((resolve, reject) => {
    const child = spawn(pythonPath(), ['-c', validatorScript, schema], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve(code === 0 ? '' : stderr.trim() || `exit ${code}`));
    child.stdin.end(xml);
  });
}

/**
 * RFC 4287's rules its RELAX NG grammar does not state: the two Schematron rules (an author for every
 * entry, an alternate link or content), 4.1.1's one alternate link per entry and its self link,
 * RFC 3339 dates with their offset (3.3; xsd:dateTime leaves the offset out) and ids that are IRIs
 * (4.2.6; the grammar's atomUri is any text).
 */
function atomProblems(xml: string): string[] {
  const problems: string[] = [];
  const feed = parseAtomFeed(xml);
  const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
  const iri = /^[a-z][a-z0-9+.-]*:\S+$/i;
  if (!feed.authors?.some((a) => a.name)) problems.push('feed: no atom:author with a name');
  if (!feed.links?.some((l) => l.rel === 'self')) problems.push('feed: no rel="self" link');
  for (const date of [feed.updated, ...(feed.entries ?? []).flatMap((e) => [e.updated, e.published])])
    if (date !== undefined && !rfc3339.test(date)) problems.push(`not an RFC 3339 date: ${date}`);
  for (const id of [feed.id, ...(feed.entries ?? []).map((e) => e.id)])
    if (!iri.test(id ?? '')) problems.push(`not an IRI: ${id}`);
  (feed.entries ?? []).forEach((entry, i) => {
    const alternates = (entry.links ?? []).filter((l) => (l.rel ?? 'alternate') === 'alternate');
    if (alternates.length !== 1) problems.push(`entry ${i}: ${alternates.length} alternate links`);
    if (!entry.summary && !entry.content) problems.push(`entry ${i}: neither summary nor content`);
  });
  return problems;
}

describe("a search's changes as feeds", () => {
  it('as Atom (RFC 4287) and JSON Feed 1.1, valid, naming the board and its parameters', async () => {
    const atom = await text(`/departures/feed.atom${query}`);
    expect(atom.res.status).toBe(200);
    expect(atom.res.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    expect(await atomSchemaErrors(atom.body)).toBe('');
    expect(atomProblems(atom.body)).toEqual([]);
    const parsed = parseAtomFeed(atom.body);
    // The validator refuses a broken copy: an entry without its atom:id.
    const broken = atom.body.replace(/(<entry>[\s\S]*?)<id>[^<]*<\/id>/, '$1');
    expect(broken).not.toBe(atom.body);
    expect(await atomSchemaErrors(broken)).toMatch(/line \d+: .*entry/);
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
    const everyAtom = (await text('/departures/feed.atom')).body;
    expect(await atomSchemaErrors(everyAtom)).toBe('');
    expect(atomProblems(everyAtom)).toEqual([]);
    expect(parseAtomFeed(everyAtom).entries?.length).toBe(every.items.length);
    const none = await text('/departures/feed.atom?minSeats=99');
    expect(none.res.status).toBe(200);
    expect(await atomSchemaErrors(none.body)).toBe('');
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
