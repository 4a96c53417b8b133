/**
 * /mcp shares the API's quota through a real server: each message counts, a batch is refused
 * whole (no revision spoken there has batches), and a client that spends its quota there is
 * refused on /v1 too, while another client is not held back. The agent-registration endpoints
 * that had no limit are bounded too.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { startHarness, type Harness } from '../agent-auth/harness.ts';
import { createAgentAuthLimiters } from '../../service/agent-auth/deps.ts';

let server: InProcessServer;
beforeAll(async () => {
  // Behind Vercel's client-IP header, so one test can stand for several clients.
  server = await startInProcess(inject('fixtureSite'), { TRUST_PROXY: 'vercel', OPERATIONAL_STORAGE: 'off' });
});
afterAll(() => server?.stop());

const call = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'list_trips', arguments: {} },
});

function mcp(body: unknown, client: string): Promise<Response> {
  return fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-11-25',
      'X-Real-IP': client,
    },
    body: JSON.stringify(body),
  });
}

describe('/mcp and the API quota', () => {
  it('refuses a batch as JSON-RPC does (-32600), answering each request by its id', async () => {
    const res = await mcp(
      Array.from({ length: 11 }, (_, i) => call(i)),
      '198.51.100.1',
    );
    expect(res.status).toBe(400);
    const errors = (await res.json()) as { id: number; error: { code: number; message: string } }[];
    expect(errors.map((e) => e.id)).toEqual(Array.from({ length: 11 }, (_, i) => i));
    expect(errors[0]?.error).toMatchObject({ code: -32600, message: expect.stringContaining('one message per POST') });
  });

  it('counts every message, shares the count with /v1, and leaves other clients alone', async () => {
    const client = '198.51.100.2';
    let last = 120;
    for (let sent = 0; sent < 120; sent += 1) {
      const res = await mcp(call(sent), client);
      expect(res.status, `message ${sent}`).toBe(200);
      const remaining = Number(res.headers.get('ratelimit-remaining'));
      expect(remaining).toBe(last - 1);
      last = remaining;
      await res.arrayBuffer();
    }
    const refused = await mcp(call(41), client);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The refusal answers the request it refuses, by its id.
    expect(await refused.json()).toMatchObject({
      jsonrpc: '2.0',
      id: 41,
      error: { message: expect.stringContaining('shared with /v1') },
    });
    const api = await fetch(`${server.url}/v1/trips`, { headers: { 'X-Real-IP': client } });
    expect(api.status).toBe(429);
    expect((await fetch(`${server.url}/v1/trips`, { headers: { 'X-Real-IP': '198.51.100.3' } })).status).toBe(200);
    expect((await mcp(call(1), '198.51.100.3')).status).toBe(200);
  });

  it('counts a POST it refuses before reading it: too large, from another origin, not JSON', async () => {
    const client = '198.51.100.4';
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Real-IP': client, ...headers },
        body,
      });
    const refusals = [
      await post(JSON.stringify('x'.repeat(70_000))),
      await post(JSON.stringify(call(1)), { Origin: 'https://evil.example' }),
      await post('{"jsonrpc":'),
    ];
    expect(refusals.map((r) => r.status)).toEqual([413, 403, 400]);
    expect(refusals.map((r) => r.headers.get('ratelimit-remaining'))).toEqual(['119', '118', '117']);
    const next = await mcp(call(2), client);
    expect(next.status).toBe(200);
    expect(next.headers.get('ratelimit-remaining')).toBe('116');
    // Over the quota, an oversized POST is refused as any other: 429, before its body is read.
    for (let i = 0; i < 116; i += 1) await (await post(JSON.stringify('x'.repeat(70_000)))).arrayBuffer();
    const over = await post(JSON.stringify('x'.repeat(70_000)));
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('agent registration endpoints that take any request', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ limiters: createAgentAuthLimiters() });
  });
  afterAll(() => h?.close());

  it('bound /agent/credential and /agent/event/notify per client', async () => {
    let credential = 0;
    while ((await h.credential('not-a-token')).status !== 429) credential += 1;
    expect(credential).toBe(120);
    let events = 0;
    while ((await h.event('not-a-token')).status !== 429) events += 1;
    expect(events).toBe(60);
  });
});
