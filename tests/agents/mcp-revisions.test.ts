/**
 * Every protocol revision /mcp speaks, through its official client and the real Node host: the
 * v2 client pinned to 2026-07-28, the SDK 1.x client on 2025-11-25 and the v2 client on
 * 2025-06-18 each list and call every tool, list and read every resource and template, list and
 * get every prompt, and every answer equals what REST answers for the same thing (the /v1
 * endpoint, the Markdown twin, the published file, POST /api/bookings); what has no REST twin
 * (prompts, completions) is the same on every revision.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { toolDefinitions } from '../../service/mcp/tools.ts';
import { operations } from '../../service/v1/operations.ts';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { loadCatalogue } from '../helpers/content.ts';
import { builtSiteUrl } from './built-site.ts';
import { connect, revisions, type McpClient, type Revision } from '../../scripts/interop/mcp-clients.ts';
import { newDataDir } from '../helpers/embedded-template.ts';

let server: InProcessServer;
let dataDir: string;
const sessions = new Map<Revision, { client: McpClient; negotiated: string | undefined }>();
const catalogue = loadCatalogue();

beforeAll(async () => {
  dataDir = newDataDir('mcp-revisions-');
  const site = inject('fixtureSite');
  // Behind Vercel's client-address header, so each client has its own enquiry quota.
  server = await startInProcess(site, { SITE_URL: builtSiteUrl(site), DATA_DIR: dataDir, TRUST_PROXY: 'vercel' });
  for (const [i, revision] of revisions.entries())
    sessions.set(
      revision,
      await connect(revision, `${server.url}/mcp`, { headers: { 'X-Real-IP': `192.0.2.${70 + i}` } }),
    );
});
afterAll(async () => {
  for (const { client } of sessions.values()) await client.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const served = (pathname: string, init?: RequestInit) => fetch(`${server.url}${pathname}`, init);
const localPath = (uri: string) => new URL(uri).pathname;
const withoutReadingTime = (markdown: string) => markdown.replace(/^Read live at [^.]*\./m, 'Read live at <time>.');

/** Every read-only tool with no arguments, with each filter's documented example, and with the path value of every trip and peak. */
function toolCalls(): { name: string; args: Record<string, unknown>; rest: string }[] {
  const calls: { name: string; args: Record<string, unknown>; rest: string }[] = [];
  for (const tool of toolDefinitions) {
    const op = operations.find((o) => o.operationId === tool.operationId)!;
    if (op.pathParam) {
      const values =
        op.pathParam.name === 'slug' ? catalogue.trips.map((p) => p.trip.slug) : catalogue.peaks.map((p) => p.id);
      for (const value of values)
        calls.push({
          name: tool.name,
          args: { [op.pathParam.name]: value },
          rest: `/v1${op.path.replace(`{${op.pathParam.name}}`, value)}`,
        });
      continue;
    }
    calls.push({ name: tool.name, args: {}, rest: `/v1${op.path}` });
    for (const [param, declared] of Object.entries(op.query)) {
      const example = declared.example?.(catalogue);
      if (example !== undefined)
        calls.push({
          name: tool.name,
          args: { [param]: example },
          rest: `/v1${op.path}?${new URLSearchParams({ [param]: example })}`,
        });
    }
  }
  return calls;
}

it('the server card names exactly the revisions the endpoint speaks, each of which an official client negotiates below', async () => {
  const card = (await (await served('/mcp/server-card')).json()) as {
    remotes: { supportedProtocolVersions: string[] }[];
  };
  expect(card.remotes[0]?.supportedProtocolVersions).toEqual([...revisions]);
});

describe.each(revisions)('MCP %s through its official client', (revision) => {
  const session = () => sessions.get(revision)!;

  it('speaks that revision', () => {
    expect(session().negotiated).toBe(revision);
  });

  it('lists every tool, the read-only ones marked so', async () => {
    const { tools } = await session().client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...toolDefinitions.map((t) => t.name), 'send_enquiry'].sort());
    for (const tool of tools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(tool.name !== 'send_enquiry');
  });

  it('answers every read-only tool call with what GET /v1 answers', async () => {
    const calls = toolCalls();
    expect(calls.length).toBeGreaterThan(toolDefinitions.length);
    for (const { name, args, rest } of calls) {
      const result = await session().client.callTool({ name, arguments: args });
      const api = await served(rest);
      expect(api.status, rest).toBe(200);
      expect(result.isError ?? false, `${name} ${JSON.stringify(args)}`).toBe(false);
      expect(result.structuredContent, `${name} ${JSON.stringify(args)}`).toEqual(await api.json());
      expect(result.content[0]?.text?.length ?? 0).toBeGreaterThan(20);
    }
  });

  it('sends an enquiry as POST /api/bookings takes one, and refuses a faulty one as it does', async () => {
    const person = {
      tripSlug: 'sample-trek',
      name: 'Asha Rao',
      phone: '+91 98765 43210',
      groupSize: 2,
      message: `Through MCP ${revision}`,
    };
    const result = await session().client.callTool({ name: 'send_enquiry', arguments: person });
    const post = (body: unknown) =>
      served('/api/bookings', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Real-IP': `198.51.100.${revisions.indexOf(revision) + 80}` },
        body: JSON.stringify(body),
      });
    const api = await post(person);
    expect(api.status).toBe(201);
    // Each enquiry has its own reference, wherever the answer names it.
    const sameButReference = (body: unknown) =>
      JSON.parse(JSON.stringify(body).replaceAll((body as { enquiry: { id: string } }).enquiry.id, '<reference>'));
    expect(result.isError ?? false).toBe(false);
    expect(sameButReference(result.structuredContent)).toEqual(sameButReference(await api.json()));

    const faulty = { ...person, phone: 'call me', groupSize: 0 };
    const refused = await session().client.callTool({ name: 'send_enquiry', arguments: faulty });
    const apiRefused = await post(faulty);
    expect(apiRefused.status).toBe(400);
    expect(refused.isError).toBe(true);
    // The endpoint's own answer, as its second block, and its code in the first.
    const apiBody = (await apiRefused.json()) as { error: { code: string; fields: { field: string }[] } };
    expect(apiBody.error.fields.map((f) => f.field).sort()).toEqual(['groupSize', 'phone']);
    expect(JSON.parse(refused.content[1]?.text ?? '{}')).toEqual(apiBody);
    expect(refused.content[0]?.text).toContain(
      `(${apiBody.error.code}; POST /api/bookings answers HTTP 400 with the same code)`,
    );
  });

  it('lists every resource and reads each as the site serves it', async () => {
    const { resources } = await session().client.listResources();
    expect(resources.length).toBe(catalogue.trips.length + catalogue.peaks.length + 2);
    for (const resource of resources) {
      const read = await session().client.readResource({ uri: resource.uri });
      const content = read.contents[0]!;
      expect(content.mimeType, resource.uri).toBe(resource.mimeType);
      const answer = await served(localPath(resource.uri), { headers: { Accept: resource.mimeType ?? '*/*' } });
      expect(answer.status, resource.uri).toBe(200);
      const text = await answer.text();
      if (resource.mimeType === 'text/markdown')
        expect(withoutReadingTime(content.text ?? ''), resource.uri).toBe(withoutReadingTime(text));
      else expect(JSON.parse(content.text ?? ''), resource.uri).toEqual(JSON.parse(text));
    }
  });

  it('lists the trip, peak and departure-changes templates and completes them', async () => {
    const { resourceTemplates } = await session().client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.name).sort()).toEqual(['departure-changes', 'expeditions', 'peaks', 'treks']);
    const treks = resourceTemplates.find((t) => t.name === 'treks')!;
    const completed = await session().client.complete({
      ref: { type: 'ref/resource', uri: treks.uriTemplate },
      argument: { name: 'slug', value: 'sample' },
    });
    expect(completed.completion.values).toEqual(['sample-trek']);
  });

  it('lists and gets every prompt, the same on every revision', async () => {
    const { prompts } = await session().client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['choose_a_trip', 'enquire']);
    const texts = await promptTexts(session().client);
    expect(texts).toEqual(await promptTexts(sessions.get('2025-11-25')!.client));
    // The trips a person chooses from are the ones /v1 lists.
    const trips = ((await (await served('/v1/trips')).json()) as { data: { slug: string }[] }).data;
    for (const { slug } of trips) expect(texts.choose_a_trip).toContain(`(slug ${slug})`);
  });
});

async function promptTexts(client: McpClient): Promise<Record<string, string>> {
  const text = async (name: string, args: Record<string, string>) =>
    (await client.getPrompt({ name, arguments: args })).messages.map((m) => m.content.text).join('\n');
  return {
    choose_a_trip: await text('choose_a_trip', { wishes: 'an easy trek in October' }),
    enquire: await text('enquire', { tripSlug: 'sample-trek' }),
  };
}
