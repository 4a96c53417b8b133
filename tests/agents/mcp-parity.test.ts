/**
 * The MCP tools accept exactly what the /v1 operations accept: every documented form of every
 * query parameter (and forms just outside them) goes through GET /v1 and through the tool, in
 * process (real MCP SDK client, embedded departure store). Accepted forms give the same envelope;
 * refused forms are refused by both. The tools' published input schemas (JSON Schema 2020-12) say the same (Ajv).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../helpers/embedded-template.ts';
import { seedDepartures } from '../../service/departures/seed.ts';
import { DepartureStore } from '../../service/departures/store.ts';
import { knownTrips } from '../../service/departures/trips.ts';
import { handleMcp } from '../../service/mcp/index.ts';
import { toolDefinitions } from '../../service/mcp/tools.ts';
import { handleV1 } from '../../service/v1/index.ts';
import { operations, type V1Deps } from '../../service/v1/operations.ts';
import { loadCatalogue } from '../helpers/content.ts';

const site = 'https://example.test';
const catalogue = loadCatalogue(undefined, site);
let store: DepartureStore;
let deps: V1Deps;
let client: Client;
let inputSchemas: Map<string, Record<string, unknown>>;

beforeAll(async () => {
  store = new DepartureStore(() => freshDatabase(), { trips: knownTrips(catalogue) });
  await store.upsert(...seedDepartures(catalogue, new Date()));
  deps = { catalogue, departures: store };
  client = new Client({ name: 'parity', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${site}/mcp`), {
      fetch: (url, init) => handleMcp(new Request(url, init), deps),
    }),
  );
  inputSchemas = new Map(
    (await client.listTools()).tools.map((t) => [t.name, t.inputSchema as Record<string, unknown>]),
  );
});
afterAll(async () => {
  await client?.close();
  await store?.close();
});

/**
 * The forms the contract and the OpenAPI document describe, per parameter, as query text; and
 * forms /v1 refuses. A JSON-typed argument (a boolean, a number) is tried as well wherever the
 * text stands for one.
 */
const forms: Record<string, { accepted: string[]; refused: string[] }> = {
  type: { accepted: ['trek', 'expedition'], refused: ['Trek', 'boat', ''] },
  region: {
    accepted: ['ladakh', 'LADAKH', 'Fixture Valley', 'la', 'x'.repeat(60)],
    refused: ['l', 'x'.repeat(61), ''],
  },
  difficulty: {
    accepted: [
      'Easy',
      'easy',
      'EASY',
      'Moderate',
      'moderate',
      'mOdErAtE',
      'Difficult',
      'difficult',
      'Very Difficult',
      'very difficult',
      'VERY DIFFICULT',
    ],
    refused: ['very-difficult', 'Hard', 'eas', 'Easy ', ''],
  },
  maxPriceInr: {
    accepted: ['1', '15000', '20000', '015000', '999999999'],
    refused: ['0', '000', '-1', '1.5', '1e4', '1000000000', '12,000', 'abc', ''],
  },
  trip: { accepted: ['sample-trek', 'sample-expedition', 'no-such-trip'], refused: ['Sample-Trek', 'sample trek', ''] },
  from: {
    accepted: ['2027-06-01', '2000-01-01', '2028-02-29', '2027-12-31'],
    refused: ['2027-13-01', '2027-9-20', '20270920', '2027-09-32', 'tomorrow', '2027-09-20T00:00', ''],
  },
  to: { accepted: ['2027-09-30', '2099-12-31'], refused: ['2027-00-10', '27-09-30', '2027/09/30', ''] },
  minDays: { accepted: ['1', '2', '14', '02'], refused: ['0', '-1', '2.5', 'week', ''] },
  maxDays: { accepted: ['1', '2', '10', '999999999'], refused: ['0', '1000000000', '1e1', ''] },
  minSeats: { accepted: ['1', '2', '12'], refused: ['0', '-2', 'two', '2 ', ''] },
  openPeak: { accepted: ['true', 'false'], refused: ['TRUE', 'yes', '1', ''] },
  firstSixThousanderCandidate: { accepted: ['true', 'false'], refused: ['True', '0', ''] },
  operatorOperated: { accepted: ['true', 'false'], refused: ['no', ''] },
  maxAltitudeM: { accepted: ['6150', '6500', '7050', '1'], refused: ['0', '-5', '6000.5', 'high', ''] },
};

/** The JSON values a tool argument may carry for one query text: the text, and its natural JSON type. */
function argumentsFor(text: string): unknown[] {
  const values: unknown[] = [text];
  if (text === 'true' || text === 'false') values.push(text === 'true');
  if (/^-?[0-9]+(\.[0-9]+)?$/.test(text)) values.push(Number(text));
  return values;
}

async function viaV1(path: string, name: string, text: string) {
  const url = new URL(`${site}/v1${path}`);
  url.searchParams.set(name, text);
  const res = await handleV1(new Request(url), deps);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function viaMcp(tool: string, name: string, value: unknown) {
  const result = await client.callTool({ name: tool, arguments: { [name]: value } });
  return {
    isError: result.isError === true,
    structured: result.structuredContent,
    text: (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n'),
  };
}

const queryOperations = toolDefinitions.flatMap((tool) => {
  const op = operations.find((o) => o.operationId === tool.operationId)!;
  return Object.keys(op.query).map((name) => ({ tool: tool.name, path: op.path, name }));
});

describe('MCP tools and /v1 accept the same parameter values', () => {
  it('has documented forms for every query parameter a tool takes', () => {
    // A name shared by two operations (listTrips and listDepartures filter by type, region,
    // difficulty and maxPriceInr alike) has one set of forms.
    expect([...new Set(queryOperations.map((q) => q.name))].sort()).toEqual(Object.keys(forms).sort());
  });

  it.each(queryOperations)(
    '$tool $name: every accepted form answers the same data through both',
    async ({ tool, path, name }) => {
      for (const text of forms[name]!.accepted) {
        const api = await viaV1(path, name, text);
        expect(api.status, `GET /v1${path}?${name}=${text}`).toBe(200);
        for (const value of argumentsFor(text)) {
          const mcp = await viaMcp(tool, name, value);
          expect(mcp.isError, `${tool} ${JSON.stringify({ [name]: value })}: ${mcp.text}`).toBe(false);
          expect(mcp.structured, `${tool} ${JSON.stringify({ [name]: value })}`).toEqual(api.body);
        }
      }
    },
  );

  it.each(queryOperations)('$tool $name: every refused form is refused by both', async ({ tool, path, name }) => {
    for (const text of forms[name]!.refused) {
      const api = await viaV1(path, name, text);
      expect(api.status, `GET /v1${path}?${name}=${text}`).toBe(400);
      expect(api.body).toMatchObject({ error: { code: 'invalid_parameter' } });
      for (const value of argumentsFor(text)) {
        const mcp = await viaMcp(tool, name, value);
        expect(mcp.isError, `${tool} ${JSON.stringify({ [name]: value })} was accepted`).toBe(true);
        expect(mcp.text).toContain(name);
      }
    }
  });

  it.each(queryOperations)('$tool $name: the published input schema agrees with both (Ajv)', ({ tool, name }) => {
    const validate = new Ajv2020({ strict: false }).compile(inputSchemas.get(tool)!);
    for (const text of forms[name]!.accepted)
      for (const value of argumentsFor(text))
        expect(validate({ [name]: value }), `${tool} ${JSON.stringify(value)}`).toBe(true);
    for (const text of forms[name]!.refused)
      for (const value of argumentsFor(text))
        expect(validate({ [name]: value }), `${tool} ${JSON.stringify(value)}`).toBe(false);
  });

  it('answers an unknown filter and a wrong JSON type as errors, like an unknown or malformed query parameter', async () => {
    expect((await viaV1('/trips', 'colour', 'red')).status).toBe(400);
    expect((await viaMcp('list_trips', 'colour', 'red')).isError).toBe(true);
    for (const [name, value] of [
      ['difficulty', 1],
      ['openPeak', null],
      ['maxAltitudeM', true],
      ['region', ['ladakh']],
    ] as const) {
      const tool = name === 'difficulty' || name === 'region' ? 'list_trips' : 'list_peaks';
      expect((await viaMcp(tool, name, value)).isError, `${name} ${JSON.stringify(value)}`).toBe(true);
    }
  });

  it('looks a path value up as /v1 does: any text, and one that breaks the pattern finds nothing', async () => {
    for (const [tool, name, path, value, code] of [
      ['get_trip', 'slug', '/trips/', 'sample-trek', null],
      ['get_trip', 'slug', '/trips/', 'Sample-Trek', 'trip_not_found'],
      ['get_trip', 'slug', '/trips/', 'no such trip', 'trip_not_found'],
      ['get_peak', 'id', '/peaks/', 'sample-peak', null],
      ['get_peak', 'id', '/peaks/', 'SAMPLE_PEAK', 'peak_not_found'],
      ['get_peak', 'id', '/peaks/', 'retired-peak', 'peak_removed'],
    ] as const) {
      const api = await handleV1(new Request(`${site}/v1${path}${encodeURIComponent(value)}`), deps);
      const mcp = await viaMcp(tool, name, value);
      if (code === null) {
        expect(api.status).toBe(200);
        expect(mcp.structured).toEqual(await api.json());
      } else {
        const { error } = (await api.json()) as { error: { code: string; message: string; hint: string } };
        expect(api.status).toBe(code === 'peak_removed' ? 410 : 404);
        expect(error.code).toBe(code);
        expect(mcp.isError).toBe(true);
        expect(mcp.text).toContain(code);
        // The tool says what /v1 says: for a removed id, when it went, where its record is kept and what took its place.
        expect(mcp.text).toContain(error.message);
        expect(mcp.text).toContain(error.hint);
      }
    }
  });

  it('answers an id the same peak had before with that peak, saying its id has changed, as /v1 redirects', async () => {
    const api = await handleV1(new Request(`${site}/v1/peaks/renamed-peak`), deps);
    expect(api.status).toBe(301);
    const target = await handleV1(new Request(api.headers.get('Location')!), deps);
    const mcp = await viaMcp('get_peak', 'id', 'renamed-peak');
    expect(mcp.isError).toBeFalsy();
    expect(mcp.structured).toEqual(await target.json());
    expect(mcp.text).toMatch(/^Sample Peak has the id "sample-peak" since version 2\.1\.0 of the dataset/);
  });
});
