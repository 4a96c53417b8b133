/**
 * The OpenAPI documents themselves: generated from the code (the built file is the generator's
 * output), complete (every operation, parameter bound, error and header; both body types and both
 * answer types of the enquiry), examples that hold, and clean under `redocly lint`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { errorCodes } from '../../service/http/errors.ts';
import { cachePolicy } from '../../service/http/cache-policy.ts';
import { rateLimitHeaderNames } from '../../service/rules/policy.ts';
import { buildEnquiryOpenApiDocument } from '../../service/bookings/openapi.ts';
import { buildOpenApiDocument } from '../../service/v1/openapi.ts';
import { operations } from '../../service/v1/operations.ts';
import { loadCatalogue, realContent } from '../helpers/content.ts';
import { OpenApiContract } from '../helpers/openapi.ts';
import { projectRoot } from '../helpers/project.ts';

const siteUrl = 'http://127.0.0.1:4321';
const catalogue = loadCatalogue(undefined, siteUrl);
// Read as plain JSON: the tests walk it the way a client of the published file would.
const document: Record<string, any> = await buildOpenApiDocument(catalogue);
const contract = new OpenApiContract(document);
const get = (op: (typeof operations)[number]) => document.paths[op.path].get;
const everyLimitHeader = rateLimitHeaderNames.filter((name) => name !== 'Retry-After');

/** Runs redocly lint (recommended rules, or the project's redocly.yaml) on a document. */
function redoclyLint(doc: unknown): { status: number | null; output: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
  try {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const result = spawnSync(
      process.execPath,
      [path.join(projectRoot, 'node_modules', '.bin', 'redocly'), 'lint', file],
      {
        cwd: projectRoot,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('openapi.json', () => {
  it('is what the generator makes of the content, served by the build', () => {
    const built = JSON.parse(readFileSync(path.join(inject('fixtureSite'), 'dist', 'site', 'openapi.json'), 'utf8'));
    expect(built).toEqual(document);
  });

  it('describes the deployment: version, server, contact, licence, no security', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: `${siteUrl}/v1`, description: expect.any(String) }]);
    expect(document.info.contact.email).toBe(catalogue.site.contactEmail);
    expect(document.info.license.identifier).toBe('CC-BY-4.0');
    expect(document.security).toEqual([]);
    expect(document.components.securitySchemes).toBeUndefined();
    expect(document.info.description).toContain('`Authorization` header is ignored');
    expect(document.info.description).toContain(catalogue.attribution);
  });

  it('has every operation at its path, with summary, description and parameters with their bounds', () => {
    expect(contract.operationIds()).toEqual(operations.map((op) => op.operationId));
    for (const op of operations) {
      const declared = get(op);
      expect(declared.operationId).toBe(op.operationId);
      expect(declared.summary).toBe(op.summary);
      const names = declared.parameters.filter((p: { name?: string }) => p.name).map((p: { name: string }) => p.name);
      expect(names).toEqual([...(op.pathParam ? [op.pathParam.name] : []), ...Object.keys(op.query)]);
      expect(declared.parameters.at(-1)).toEqual({ $ref: '#/components/parameters/IfNoneMatch' });
    }
    const param = (opId: string, name: string) =>
      document.paths[operations.find((op) => op.operationId === opId)!.path].get.parameters.find(
        (p: { name?: string }) => p.name === name,
      );
    expect(param('listTrips', 'region').schema).toEqual({ type: 'string', minLength: 2, maxLength: 60 });
    expect(param('listTrips', 'type').schema.enum).toEqual(['trek', 'expedition']);
    // The four bands as an enum (generated clients list them); the API matches them in any letter case, as the description says.
    expect(param('listTrips', 'difficulty').schema).toEqual({
      type: 'string',
      enum: ['Easy', 'Moderate', 'Difficult', 'Very Difficult'],
    });
    expect(param('listTrips', 'difficulty').description).toContain('(any letter case)');
    for (const op of operations) expect(get(op).tags, op.operationId).toEqual([op.tag]);
    expect(document.tags.map((t: { name: string }) => t.name)).toEqual(['Service', 'Trips', 'Departures', 'Peaks']);
    for (const [opId, name] of [
      ['listTrips', 'maxPriceInr'],
      ['listPeaks', 'maxAltitudeM'],
    ] as const) {
      expect(param(opId, name).schema).toMatchObject({ type: 'integer', minimum: 1 });
    }
    for (const name of ['openPeak', 'firstSixThousanderCandidate', 'operatorOperated'])
      expect(param('listPeaks', name).schema).toEqual({ type: 'boolean' });
    for (const [opId, name] of [
      ['getTrip', 'slug'],
      ['getPeak', 'id'],
      ['listDepartures', 'trip'],
    ] as const) {
      expect(param(opId, name).schema.pattern).toBe('^[a-z0-9-]+$');
    }
    expect(param('getTrip', 'slug')).toMatchObject({
      in: 'path',
      required: true,
      example: catalogue.trips[0]!.trip.slug,
    });
    expect(param('getPeak', 'id')).toMatchObject({ in: 'path', required: true, example: catalogue.peaks[0]!.id });
  });

  it('declares 200, 304, every error code of each operation, and 405, 406, 429 and 500 everywhere', () => {
    for (const op of operations) {
      const responses = get(op).responses;
      const expected = new Set([
        '200',
        '304',
        '405',
        '406',
        '429',
        '500',
        ...op.errors.map((code) => String(errorCodes[code])),
      ]);
      expect(Object.keys(responses).sort(), op.operationId).toEqual([...expected].sort());
      expect(responses['200'].content['application/json'].schema).toEqual({
        $ref: `#/components/schemas/${op.response.name}`,
      });
      expect(responses['200'].headers['Cache-Control'].schema.const).toBe(cachePolicy[op.cache]);
      expect(responses['304'].content).toBeUndefined();
      for (const code of op.errors) {
        const media = responses[String(errorCodes[code])].content['application/json'];
        expect(media.schema.allOf[1].properties.error.properties.code.enum, `${op.operationId} ${code}`).toContain(
          code,
        );
        const codes = Object.values(media.examples).map((e: any) => e.value.error.code);
        expect(codes, `${op.operationId} ${code}`).toContain(code);
      }
    }
    expect(Object.keys(document.components.responses)).toEqual([
      'MethodNotAllowed',
      'NotAcceptable',
      'RateLimited',
      'InternalError',
    ]);
  });

  it('puts the rate-limit headers on every response, and Retry-After on 429', () => {
    expect(Object.keys(document.components.headers)).toEqual(expect.arrayContaining([...rateLimitHeaderNames]));
    expect(document.components.headers['RateLimit-Policy'].schema.const).toBe('120;w=60');
    const responses = [
      ...operations.flatMap((op) => Object.values<any>(get(op).responses)),
      ...Object.values<any>(document.components.responses),
    ].filter((r) => !r.$ref);
    for (const response of responses) {
      for (const name of everyLimitHeader)
        expect(response.headers[name], response.description).toEqual({ $ref: `#/components/headers/${name}` });
    }
    expect(document.components.responses.RateLimited.headers['Retry-After']).toEqual({
      $ref: '#/components/headers/Retry-After',
    });
  });

  it('takes its examples from the catalogue, and every example holds against its schema', () => {
    const trip = get(operations.find((op) => op.operationId === 'getTrip')!).responses['200'].content[
      'application/json'
    ].examples.getTrip.value;
    expect(trip.data).toEqual(catalogue.trips[0]!.trip);
    let checked = 0;
    const media = [
      ...operations.flatMap((op) => Object.values<any>(get(op).responses)),
      ...Object.values<any>(document.components.responses),
    ].flatMap((r) => (r.content ? [r.content['application/json']] : []));
    for (const { schema, examples } of media) {
      for (const [name, example] of Object.entries<any>(examples ?? {})) {
        expect(contract.schemaProblems(schema, example.value, name)).toEqual([]);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(20);
    for (const [name, header] of Object.entries<any>(document.components.headers)) {
      if ('example' in header) expect(contract.schemaProblems(header.schema, header.example, name)).toEqual([]);
    }
  });

  it('passes redocly lint with no errors and no warnings', () => {
    const result = redoclyLint(document);
    expect(result.output).not.toMatch(/You have \d+ warnings?/);
    expect(result.status, result.output).toBe(0);
  });

  it('passes redocly lint when generated from the real content too', async (ctx) => {
    let real;
    try {
      real = loadCatalogue(realContent, 'https://theverticaltribe.com');
    } catch (error) {
      // The content has its own tests; an unfinished catalogue is their failure to report.
      ctx.skip(`the real content does not load yet: ${String(error).slice(0, 200)}`);
      return;
    }
    const result = redoclyLint(await buildOpenApiDocument(real));
    expect(result.output).not.toMatch(/You have \d+ warnings?/);
    expect(result.status, result.output).toBe(0);
  });
});

describe('enquiry-openapi.json', async () => {
  const enquiry: Record<string, any> = await buildEnquiryOpenApiDocument(catalogue);
  const post = enquiry.paths['/api/bookings'].post;

  it('is what the generator makes of the content, served by the build', () => {
    expect(
      JSON.parse(readFileSync(path.join(inject('fixtureSite'), 'dist', 'site', 'enquiry-openapi.json'), 'utf8')),
    ).toEqual(enquiry);
  });

  it('has a licence, as the /v1 document does', () => {
    expect(enquiry.info.license).toEqual({
      name: catalogue.site.dataset.license,
      identifier: document.info.license.identifier,
    });
  });

  it('takes both body types: JSON, and the fields of the web form, every one as text, from the same schema', () => {
    expect(Object.keys(post.requestBody.content).sort()).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
    ]);
    const { EnquiryRequest: json, EnquiryForm: form } = enquiry.components.schemas;
    expect(Object.keys(form.properties)).toEqual([...Object.keys(json.properties), 'formToken']);
    expect(form.required).toEqual(json.required);
    for (const [name, field] of Object.entries<any>(form.properties)) {
      const texts = field.anyOf ?? [field];
      for (const text of texts) expect(text.type, name).toBe('string');
    }
  });

  it('answers both ways: JSON to a JSON body; to the form, a redirect or a page', () => {
    const { responses } = post;
    expect(Object.keys(responses).sort()).toEqual(['201', '303', '400', '403', '409', '422', '429', '502', '503']);
    expect(Object.keys(responses['201'].content)).toEqual(['application/json']);
    expect(responses['303'].content).toBeUndefined();
    expect(responses['303'].headers.Location.required).toBe(true);
    expect(Object.keys(responses['403'].content)).toEqual(['text/html']);
    expect(Object.keys(responses['409'].content)).toEqual(['application/json']);
    for (const status of ['400', '422', '429', '502', '503'])
      expect(Object.keys(responses[status].content).sort(), status).toEqual(['application/json', 'text/html']);
  });

  it('passes redocly lint with no errors and no warnings', () => {
    const result = redoclyLint(enquiry);
    expect(result.output).not.toMatch(/You have \d+ warnings?/);
    expect(result.status, result.output).toBe(0);
  });
});
