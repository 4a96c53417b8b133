/**
 * The departure search's parameters on GET /v1/departures: each bad value of each filter is a 400
 * `invalid_parameter` whose hint names the accepted form (the contract's rule), `from` after `to`
 * included, and the OpenAPI document declares each filter with an example that holds against its
 * own schema and that the API accepts.
 */
import { describe, expect, it } from 'vitest';
import { searchNames, searchParameters } from '../../service/departures/search.ts';
import { errorBody } from '../../service/http/error-body.ts';
import { siteFiles } from '../../service/site-files.ts';
import { buildOpenApiDocument } from '../../service/v1/openapi.ts';
import { handleV1 } from '../../service/v1/index.ts';
import type { V1Deps } from '../../service/v1/operations.ts';
import { loadCatalogue } from '../helpers/content.ts';

const catalogue = loadCatalogue();
const deps: V1Deps = { catalogue, departures: { listPublished: async () => [] }, log: () => {} };

async function get(query: string): Promise<{ status: number; body: unknown }> {
  const response = await handleV1(new Request(`https://example.test/v1/departures${query}`), deps);
  return { status: response.status, body: await response.json() };
}

/** Values each filter refuses: wrong shape, out of range, and near misses of the accepted form. */
const bad: Record<(typeof searchNames)[number], string[]> = {
  trip: ['Hampta-Pass', 'hampta pass', '../x', ''],
  from: ['2027-02-30', '2027-13-01', '2027-9-20', '20-09-2027', '2027-09-20T00:00:00Z', 'today', ''],
  to: ['2027-04-31', '2027-00-10', '2027/10/31', 'October', ''],
  type: ['Trek', 'treks', 'walk', ''],
  difficulty: ['Hard', 'moderate ', 'very-difficult', '2', ''],
  region: ['x', 'y'.repeat(61), ''],
  minDays: ['0', '-3', '5.5', '1e1', 'week', ''],
  maxDays: ['0', '1000000000', '8days', ''],
  minSeats: ['0', '-1', 'two', '2.0', ''],
  maxPriceInr: ['0', '25,000', '₹25000', '25000.5', ''],
};

describe('GET /v1/departures refuses each bad value of each filter', () => {
  it('has bad values for every filter the search declares', () => {
    expect(Object.keys(bad).sort()).toEqual([...searchNames].sort());
  });

  it.each(searchNames)('%s: 400 invalid_parameter, the hint naming the accepted form', async (name) => {
    for (const value of bad[name]) {
      const { status, body } = await get(`?${name}=${encodeURIComponent(value)}`);
      const label = `${name}=${JSON.stringify(value)}`;
      expect(status, label).toBe(400);
      const { error } = errorBody.parse(body);
      expect(error.code, label).toBe('invalid_parameter');
      expect(error.hint, label).toBe(`Use ${searchParameters[name].accepted}.`);
      expect(error.message, label).toContain(`"${name}"`);
    }
  });

  it('refuses "from" after "to", and accepts one date for both', async () => {
    const { status, body } = await get('?from=2027-10-31&to=2027-09-20');
    expect(status).toBe(400);
    const { error } = errorBody.parse(body);
    expect(error).toMatchObject({ code: 'invalid_parameter', status: 400 });
    expect(error.message).toBe('"from" (2027-10-31) is after "to" (2027-09-20).');
    expect(error.hint).toContain('"from" on or before "to"');
    expect((await get('?from=2027-09-20&to=2027-09-20')).status).toBe(200);
  });

  it('refuses "minDays" above "maxDays" as it refuses "from" after "to", and accepts one length for both', async () => {
    const { status, body } = await get('?minDays=10&maxDays=5');
    expect(status).toBe(400);
    const { error } = errorBody.parse(body);
    expect(error).toMatchObject({ code: 'invalid_parameter', status: 400 });
    expect(error.message).toBe('"minDays" (10) is above "maxDays" (5).');
    expect(error.hint).toContain('"minDays" at or below "maxDays"');
    expect((await get('?minDays=5&maxDays=5')).status).toBe(200);
  });

  it('accepts every filter at once, and the example the documents give', async () => {
    expect(
      (
        await get(
          '?trip=sample-trek&from=2027-01-01&to=2027-12-31&type=trek&difficulty=moderate&region=ladakh&minDays=1&maxDays=30&minSeats=2&maxPriceInr=25000',
        )
      ).status,
    ).toBe(200);
    expect(
      (await get('?type=trek&difficulty=Moderate&maxDays=8&from=2027-09-20&to=2027-10-31&minSeats=2&maxPriceInr=25000'))
        .status,
    ).toBe(200);
  });
});

describe('the documents that name the filters', () => {
  it('the published files list names every filter of the search', () => {
    const markdown = siteFiles.find((f) => f.path === '/departures.md')!.description;
    for (const name of searchNames) expect(markdown, name).toMatch(new RegExp(`\\b${name}\\b`));
  });

  it('declares each filter of listDepartures with an example the API accepts, and a 400 example of each refusal', async () => {
    const document = (await buildOpenApiDocument(catalogue)) as any;
    const operation = document.paths['/departures'].get;
    const parameters = operation.parameters.filter((p: any) => p.in === 'query');
    expect(parameters.map((p: any) => p.name)).toEqual(searchNames);
    for (const parameter of parameters) {
      expect(parameter.example, parameter.name).toBeDefined();
      expect(parameter.description, parameter.name).toContain(
        `Accepted: ${searchParameters[parameter.name as (typeof searchNames)[number]].accepted}.`,
      );
      expect(
        (await get(`?${parameter.name}=${encodeURIComponent(String(parameter.example))}`)).status,
        parameter.name,
      ).toBe(200);
    }
    const examples = Object.values<{ summary: string; value: any }>(
      operation.responses['400'].content['application/json'].examples,
    );
    expect(examples.map((e) => e.summary)).toEqual([
      ...searchNames.map((name) => `An invalid value for ${name}`),
      '"from" after "to"',
      '"minDays" above "maxDays"',
      'An unknown parameter',
    ]);
    for (const example of examples) expect(example.value.error.code).toBe('invalid_parameter');
  });

  it('declares difficulty as an enum of the four bands, so generated clients list them, and still matches any letter case', async () => {
    const document = (await buildOpenApiDocument(catalogue)) as any;
    for (const path of ['/departures', '/trips']) {
      const difficulty = document.paths[path].get.parameters.find((p: any) => p.name === 'difficulty');
      expect(difficulty.schema, path).toEqual({
        type: 'string',
        enum: ['Easy', 'Moderate', 'Difficult', 'Very Difficult'],
      });
      expect(difficulty.description, path).toContain('(any letter case)');
    }
    for (const value of ['moderate', 'MODERATE', 'very difficult', 'Very Difficult'])
      expect((await get(`?difficulty=${encodeURIComponent(value)}`)).status, value).toBe(200);
  });
});
