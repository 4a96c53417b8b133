/**
 * The MCP server as an agent acting for a person meets it, through the official SDK client and
 * the running site: `send_enquiry` takes an enquiry end to end (the reference comes back, the
 * enquiry is stored and in the outbox), counts against the same per-address enquiry quota as
 * POST /api/bookings, and refuses the sixth; trips and peaks are resource templates, listed,
 * completed and read; the prompts are there. TRUST_PROXY=vercel lets each test speak from its
 * own client address, as the host would see it.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { enquiryIdPattern } from '../../service/bookings/store.ts';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { builtSiteUrl } from './built-site.ts';
import { newDataDir } from '../helpers/embedded-template.ts';

let server: InProcessServer;
let dataDir: string;
const clients: Client[] = [];

beforeAll(async () => {
  dataDir = newDataDir('mcp-enquiries-');
  const site = inject('fixtureSite');
  server = await startInProcess(site, { SITE_URL: builtSiteUrl(site), DATA_DIR: dataDir, TRUST_PROXY: 'vercel' });
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** An SDK client speaking from `address` (the host takes the client address from X-Real-IP behind Vercel). */
async function connect(address: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'enquiry-tests', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { 'X-Real-IP': address, ...headers } },
    }),
  );
  clients.push(client);
  return client;
}

const outbox = () => {
  try {
    return readdirSync(path.join(dataDir, 'outbox'));
  } catch {
    return [];
  }
};

const person = {
  tripSlug: 'sample-trek',
  name: 'Asha Rao',
  phone: '+91 98765 43210',
  groupSize: 2,
  preferredDeparture: 'October 2027',
  message: 'Two of us are vegetarian.',
};
type Received = {
  enquiry: { id: string; status: string; tripSlug: string };
  callbackPromise: string | null;
  next: string;
};
const textOf = (result: unknown) =>
  (result as { content: { type: string; text: string }[] }).content.map((c) => c.text).join('\n');

describe('send_enquiry', () => {
  it('is described as an action on the open world that needs the person, their details and consent', async () => {
    const client = await connect('192.0.2.60');
    const tool = (await client.listTools()).tools.find((t) => t.name === 'send_enquiry');
    expect(tool?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, openWorldHint: true });
    for (const words of [
      'own name and phone number',
      'consent',
      'guide calls them back',
      'Nothing is booked',
      'enquiry form',
    ])
      expect(tool?.description, words).toContain(words);
    expect(tool?.inputSchema.required).toEqual(['tripSlug', 'name', 'phone', 'groupSize']);
    expect(tool?.outputSchema?.required).toEqual(['enquiry', 'callbackPromise', 'next']);
  });

  it('sends an enquiry end to end: the reference comes back, the enquiry is stored and in the outbox', async () => {
    const client = await connect('192.0.2.61');
    const result = await client.callTool({ name: 'send_enquiry', arguments: person });
    expect(result.isError ?? false).toBe(false);
    const body = result.structuredContent as Received;
    expect(body.enquiry).toMatchObject({
      status: 'received',
      tripSlug: 'sample-trek',
      id: expect.stringMatching(enquiryIdPattern),
    });
    expect(body.next).toContain('A guide will call you on +91 98765 43210');
    expect(textOf(result)).toContain(`Reference ${body.enquiry.id}`);
    // Delivered: the team's email, written from the stored enquiry, is in the outbox.
    expect(outbox()).toContain(`${body.enquiry.id}.eml`);
    const email = readFileSync(path.join(dataDir, 'outbox', `${body.enquiry.id}.eml`), 'utf8');
    for (const part of ['Asha Rao', '+91 98765 43210', 'Fixture Trek', 'Two of us are vegetarian.'])
      expect(email, part).toContain(part);
    // Stored: the person's own page of it is read from the store, delivered.
    const page = await fetch(`${server.url}/enquiry-sent?ref=${body.enquiry.id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('your enquiry reached our team');
    expect(html).toContain(body.enquiry.id);
  });

  it('takes an enquiry once under the Idempotency-Key of the POST that calls it, as POST /api/bookings does', async () => {
    const client = await connect('192.0.2.67', { 'Idempotency-Key': '"mcp-enquiry-sent-again"' });
    const enquiry = { ...person, message: 'Sent again by an agent whose first call timed out.' };
    const first = (await client.callTool({ name: 'send_enquiry', arguments: enquiry })).structuredContent as Received;
    const again = await client.callTool({ name: 'send_enquiry', arguments: enquiry });
    expect((again.structuredContent as Received).enquiry.id).toBe(first.enquiry.id);
    // The same key and enquiry through the endpoint: the same enquiry again.
    const posted = await fetch(`${server.url}/api/bookings`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Real-IP': '192.0.2.67',
        'Idempotency-Key': '"mcp-enquiry-sent-again"',
      },
      body: JSON.stringify(enquiry),
    });
    expect(posted.status).toBe(201);
    expect((await posted.json()).enquiry.id).toBe(first.enquiry.id);
    expect(outbox().filter((file) => file === `${first.enquiry.id}.eml`)).toHaveLength(1);
    // Another enquiry under the same key is refused, saying why.
    const other = await client.callTool({ name: 'send_enquiry', arguments: { ...enquiry, groupSize: 3 } });
    expect(other.isError).toBe(true);
    expect(textOf(other)).toContain('idempotency_key_reused; POST /api/bookings answers HTTP 422');
  });

  it("refuses a faulty enquiry field by field, in the endpoint's words, and sends nothing", async () => {
    const client = await connect('192.0.2.62');
    const before = outbox().length;
    const result = await client.callTool({
      name: 'send_enquiry',
      arguments: { ...person, phone: 'call me', groupSize: 40 },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Give a phone number of 8 to 15 digits');
    expect(textOf(result)).toContain('Group size must be a whole number');
    expect(outbox().length).toBe(before);
  });

  it('shares the per-address enquiry quota with POST /api/bookings: five in ten minutes, the sixth refused', async () => {
    const address = '192.0.2.63';
    const client = await connect(address);
    for (let i = 1; i <= 4; i += 1) {
      const result = await client.callTool({ name: 'send_enquiry', arguments: { ...person, message: `Enquiry ${i}` } });
      expect(result.isError ?? false, `enquiry ${i}`).toBe(false);
    }
    const fifth = await fetch(`${server.url}/api/bookings`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Real-IP': address },
      body: JSON.stringify(person),
    });
    expect(fifth.status).toBe(201);
    const sixth = await client.callTool({ name: 'send_enquiry', arguments: person });
    expect(sixth.isError).toBe(true);
    expect(textOf(sixth)).toContain('rate_limited');
    expect(textOf(sixth)).toContain('at most 5 every 10 minutes');
    const seventh = await fetch(`${server.url}/api/bookings`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Real-IP': address },
      body: JSON.stringify(person),
    });
    expect(seventh.status).toBe(429);
    // Another address is not held back.
    const other = await connect('192.0.2.64');
    expect((await other.callTool({ name: 'send_enquiry', arguments: person })).isError ?? false).toBe(false);
  });
});

describe('resources and prompts', () => {
  it('lists trips and peaks as resource templates, completes them and reads one resource per trip and peak', async () => {
    const client = await connect('192.0.2.65');
    const { resourceTemplates } = await client.listResourceTemplates();
    const templates = Object.fromEntries(resourceTemplates.map((t) => [t.name, t]));
    const origin = builtSiteUrl(inject('fixtureSite'));
    expect(templates).toMatchObject({
      treks: { uriTemplate: `${origin}/treks/{slug}.md`, mimeType: 'text/markdown' },
      expeditions: { uriTemplate: `${origin}/expeditions/{slug}.md`, mimeType: 'text/markdown' },
      peaks: { uriTemplate: `${origin}/v1/peaks/{id}`, mimeType: 'application/json' },
    });
    const completed = await client.complete({
      ref: { type: 'ref/resource', uri: `${origin}/treks/{slug}.md` },
      argument: { name: 'slug', value: 'sample' },
    });
    expect(completed.completion.values).toEqual(['sample-trek']);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining([
        `${origin}/treks/sample-trek.md`,
        `${origin}/expeditions/sample-expedition.md`,
        `${origin}/v1/peaks/sample-peak`,
      ]),
    );
    const peak = await client.readResource({ uri: `${origin}/v1/peaks/sample-peak` });
    const api = await (await fetch(`${server.url}/v1/peaks/sample-peak`)).json();
    expect(JSON.parse((peak.contents[0] as { text: string }).text)).toEqual(api);
    await expect(client.readResource({ uri: `${origin}/v1/peaks/no-such-peak` })).rejects.toThrow(/No peak has the id/);
  });

  it('offers the two prompts, written from the catalogue', async () => {
    const client = await connect('192.0.2.66');
    expect((await client.listPrompts()).prompts.map((p) => p.name).sort()).toEqual(['choose_a_trip', 'enquire']);
    const prompt = await client.getPrompt({ name: 'enquire', arguments: { tripSlug: 'sample-trek' } });
    const text = (prompt.messages[0]?.content as { text: string }).text;
    expect(text).toContain('send_enquiry with tripSlug "sample-trek"');
    expect(text).toContain('#enquiry-form');
    const choose = await client.getPrompt({ name: 'choose_a_trip', arguments: { wishes: 'an easy trek in October' } });
    expect((choose.messages[0]?.content as { text: string }).text).toContain('(slug sample-expedition)');
  });
});
