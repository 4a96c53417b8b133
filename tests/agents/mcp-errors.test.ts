/**
 * Errors as the protocol and JSON-RPC name them, on every revision (through the official clients,
 * in process), and errors that name a REST code naming the one REST really answers: every
 * invalid call of every read-only tool (values /v1 refuses for each filter, unknown arguments,
 * path values that name nothing or no endpoint, departures without storage) is sent as the tool
 * call and as the GET it stands for, the GET exactly as written (bytes on a socket, so `..` stays
 * a path segment) to a real Node host. Unknown tools, resources and prompts get the JSON-RPC
 * error each revision names.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { errorCodes } from '../../service/http/errors.ts';
import { handleMcp } from '../../service/mcp/index.ts';
import { legacyResourceNotFound } from '../../service/mcp/legacy-http.ts';
import { toolDefinitions } from '../../service/mcp/tools.ts';
import { operations } from '../../service/v1/operations.ts';
import { loadCatalogue } from '../helpers/content.ts';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { rawExchange, serialize } from '../hardening/raw-http.ts';
import { builtSiteUrl } from './built-site.ts';
import { connect, revisions, type McpClient, type Revision } from '../../scripts/interop/mcp-clients.ts';

let server: InProcessServer;
let origin: string;
const clients = new Map<Revision, McpClient>();

beforeAll(async () => {
  const site = inject('fixtureSite');
  origin = builtSiteUrl(site);
  // No operational storage, on both sides: departures are unavailable to the host and to the tools.
  server = await startInProcess(site, { SITE_URL: origin, OPERATIONAL_STORAGE: 'off' });
  const deps = { catalogue: loadCatalogue(undefined, origin), departures: null };
  for (const revision of revisions) {
    const { client } = await connect(revision, `${origin}/mcp`, {
      fetch: (url, init) => handleMcp(new Request(url, init), deps),
    });
    clients.set(revision, client);
  }
});
afterAll(async () => {
  for (const client of clients.values()) await client.close();
  await server?.stop();
});

let clientAddress = 0;

/** GET `target` exactly as written, from a loopback address of its own (the /v1 quota is per client). */
async function rest(target: string): Promise<{ status: number; code: string | undefined }> {
  clientAddress += 1;
  const x = await rawExchange(
    serialize('GET', target, [
      ['Host', new URL(origin).host],
      ['Accept', 'application/json'],
      ['Connection', 'close'],
    ]),
    {
      port: server.port,
      localAddress: `127.0.9.${(clientAddress % 250) + 1}`,
    },
  );
  const answer = x.responses[0]!;
  const body =
    answer.body.length > 0 ? (JSON.parse(answer.body.toString('utf8')) as { error?: { code?: string } }) : {};
  return { status: answer.status, code: body.error?.code };
}

/** The /v1 error codes a text names. */
const codesNamed = (text: string) => Object.keys(errorCodes).filter((code) => new RegExp(`\\b${code}\\b`).test(text));

/** Query texts tried for every filter; those /v1 refuses are the invalid calls. */
const candidateTexts = [
  '',
  ' ',
  'x',
  'x'.repeat(61),
  '0',
  '-1',
  '1.5',
  '1e4',
  '1000000000',
  '12,000',
  'TRUE',
  'yes',
  'boat',
  'Hard',
  'Sample-Trek',
  'sample trek',
  '../x',
];

/** The JSON values a tool argument may carry for one query text: the text, and its natural JSON type. */
function jsonValues(text: string): unknown[] {
  const values: unknown[] = [text];
  if (text === 'true' || text === 'false') values.push(text === 'true');
  if (/^-?[0-9]+(\.[0-9]+)?$/.test(text)) values.push(Number(text));
  return values;
}

/** Path values: none names a trip or peak, some name no endpoint at all. (`.` and `..` cannot be sent: see below.) */
const pathValues = [
  'no-such-thing',
  'Sample-Trek',
  'no such thing',
  '../peaks',
  'a/b',
  '%2F',
  '..%2F..',
  '...',
  'x'.repeat(200),
  'sample-trek/',
  '\\',
];

interface InvalidCall {
  tool: string;
  args: Record<string, unknown>;
  target: string;
  /** The operation itself refused it (so the tool must name the code), not the argument's JSON shape. */
  byOperation: boolean;
}

async function invalidCalls(): Promise<InvalidCall[]> {
  const calls: InvalidCall[] = [];
  for (const tool of toolDefinitions) {
    const op = operations.find((o) => o.operationId === tool.operationId)!;
    if (op.pathParam) {
      for (const value of pathValues)
        calls.push({
          tool: tool.name,
          args: { [op.pathParam.name]: value },
          target: `/v1${op.path.replace(`{${op.pathParam.name}}`, encodeURIComponent(value))}`,
          byOperation: true,
        });
      continue;
    }
    for (const name of Object.keys(op.query)) {
      for (const text of candidateTexts) {
        const target = `/v1${op.path}?${new URLSearchParams({ [name]: text })}`;
        if ((await rest(target)).status !== 400) continue;
        for (const value of jsonValues(text))
          calls.push({ tool: tool.name, args: { [name]: value }, target, byOperation: false });
      }
    }
    calls.push({ tool: tool.name, args: { colour: 'red' }, target: `/v1${op.path}?colour=red`, byOperation: false });
    if (op.operationId === 'listDepartures')
      calls.push({ tool: tool.name, args: {}, target: `/v1${op.path}`, byOperation: true });
  }
  return calls;
}

describe('every invalid tool call names the code REST answers, or none', () => {
  let calls: InvalidCall[];
  beforeAll(async () => {
    calls = await invalidCalls();
  });

  it('has invalid calls for every read-only tool', () => {
    expect(new Set(calls.map((c) => c.tool))).toEqual(new Set(toolDefinitions.map((t) => t.name)));
    expect(calls.length).toBeGreaterThan(50);
  });

  it.each(revisions)('on %s', async (revision) => {
    const client = clients.get(revision)!;
    const wrong: string[] = [];
    for (const call of calls) {
      const answer = await rest(call.target);
      const result = await client.callTool({ name: call.tool, arguments: call.args });
      const text = result.content.map((c) => c.text ?? '').join('\n');
      const label = `${call.tool} ${JSON.stringify(call.args).slice(0, 80)} (GET ${call.target.slice(0, 80)} → ${answer.status} ${answer.code})`;
      if (answer.status < 400 || answer.code === undefined) wrong.push(`${label}: REST does not refuse it`);
      if (result.isError !== true) wrong.push(`${label}: the tool did not refuse it`);
      const named = codesNamed(text);
      if (named.some((code) => code !== answer.code)) wrong.push(`${label}: the tool names ${named.join(', ')}`);
      if (call.byOperation && !named.includes(answer.code ?? ''))
        wrong.push(`${label}: the tool does not name ${answer.code}: ${text.slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers get_trip {slug: "../peaks"} as /v1 answers /v1/trips/..%2Fpeaks: endpoint_not_found, not trip_not_found', async () => {
    expect((await rest('/v1/trips/..%2Fpeaks')).code).toBe('endpoint_not_found');
    for (const client of clients.values()) {
      const result = await client.callTool({ name: 'get_trip', arguments: { slug: '../peaks' } });
      expect(result.content[0]?.text).toContain(
        '(code endpoint_not_found; GET `/v1/trips/..%2Fpeaks` answers HTTP 404 with the same code)',
      );
    }
  });

  it('answers a dot-segment path value, which no GET can carry, with the not-found code and says why', async () => {
    // Sent as written, the host resolves the dot segment: /v1/trips/.. is the service index, /v1/trips/. the trip list.
    expect(await rest('/v1/trips/..')).toEqual(await rest('/v1/'));
    expect(await rest('/v1/peaks/.')).toEqual(await rest('/v1/peaks'));
    for (const client of clients.values()) {
      for (const [tool, name, value, code, resolved] of [
        ['get_trip', 'slug', '..', 'trip_not_found', '/v1/'],
        ['get_peak', 'id', '.', 'peak_not_found', '/v1/peaks/'],
      ] as const) {
        const result = await client.callTool({ name: tool, arguments: { [name]: value } });
        expect(result.isError).toBe(true);
        const text = result.content[0]?.text ?? '';
        expect(codesNamed(text)).toEqual([code]);
        expect(text).toContain(`is resolved to \`${resolved}\` first`);
      }
    }
  });
});

describe('protocol errors, on the wire, as each revision names them', () => {
  /** One JSON-RPC request as a client of `revision` sends it (2026-07-28: its envelope and headers). */
  async function send(
    revision: Revision,
    method: string,
    params: Record<string, unknown>,
    name: string,
  ): Promise<{ status: number; body: { id: number; error?: { code: number; message: string; data?: unknown } } }> {
    const deps = { catalogue: loadCatalogue(undefined, origin), departures: null };
    const modern = revision === '2026-07-28';
    const meta = {
      'io.modelcontextprotocol/protocolVersion': revision,
      'io.modelcontextprotocol/clientInfo': { name: 'errors', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': revision,
      ...(modern ? { 'Mcp-Method': method, 'Mcp-Name': name } : {}),
    };
    const body = { jsonrpc: '2.0', id: 5, method, params: modern ? { ...params, _meta: meta } : params };
    const response = await handleMcp(
      new Request(`${origin}/mcp`, { method: 'POST', headers, body: JSON.stringify(body) }),
      deps,
    );
    return { status: response.status, body: (await response.json()) as never };
  }

  it.each(revisions)('%s: an unknown tool is -32602 Invalid Params, not a tool result', async (revision) => {
    const { body } = await send(revision, 'tools/call', { name: 'book_everest', arguments: {} }, 'book_everest');
    expect(body).toMatchObject({ id: 5, error: { code: -32602, message: expect.stringContaining('book_everest') } });
    // The clients raise it as an error, too.
    await expect(clients.get(revision)!.callTool({ name: 'book_everest', arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it.each(revisions)('%s: an unknown prompt, or a trip no prompt can be about, is -32602', async (revision) => {
    expect((await send(revision, 'prompts/get', { name: 'plan_a_heist' }, 'plan_a_heist')).body.error?.code).toBe(
      -32602,
    );
    expect(
      (await send(revision, 'prompts/get', { name: 'enquire', arguments: { tripSlug: 'no-such-trip' } }, 'enquire'))
        .body.error?.code,
    ).toBe(-32602);
  });

  it.each(revisions)(
    '%s: a resource that does not exist is "resource not found" with its URI (-32002 before 2026-07-28, -32602 from it)',
    async (revision) => {
      const code = revision === '2026-07-28' ? -32602 : legacyResourceNotFound;
      for (const uri of [
        `${origin}/treks/no-such-trek.md`,
        `${origin}/expeditions/sample-trek.md`,
        `${origin}/v1/peaks/no-such-peak`,
        `${origin}/nothing-here`,
        'urn:example:nothing',
      ]) {
        const { body } = await send(revision, 'resources/read', { uri }, uri);
        expect(body.error?.code, uri).toBe(code);
        expect(body.error?.data, uri).toEqual({ uri });
      }
      // The peak resource is GET /v1/peaks/{id}: its miss names the code that GET answers.
      const peak = await send(
        revision,
        'resources/read',
        { uri: `${origin}/v1/peaks/no-such-peak` },
        `${origin}/v1/peaks/no-such-peak`,
      );
      expect(codesNamed(peak.body.error?.message ?? '')).toEqual([(await rest('/v1/peaks/no-such-peak')).code]);
      // Every official client reads either code as "not found", with the URI.
      await expect(
        clients.get(revision)!.readResource({ uri: `${origin}/treks/no-such-trek.md` }),
      ).rejects.toMatchObject({ data: { uri: `${origin}/treks/no-such-trek.md` } });
    },
  );

  it('answers a batch with -32600 Invalid Request, one error per request', async () => {
    const deps = { catalogue: loadCatalogue(undefined, origin), departures: null };
    const batch = [1, 2].map((id) => ({ jsonrpc: '2.0', id, method: 'tools/list' }));
    const response = await handleMcp(
      new Request(`${origin}/mcp`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'MCP-Protocol-Version': '2025-11-25',
        },
        body: JSON.stringify(batch),
      }),
      deps,
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(
      batch.map(({ id }) => ({
        jsonrpc: '2.0',
        id,
        error: { code: -32600, message: expect.stringContaining('batches are not supported') },
      })),
    );
  });
});
