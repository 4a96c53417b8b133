/**
 * The API guide as Markdown, written from the operation declarations the router runs on, so
 * llms-full.txt and agent-instructions.md describe exactly the filters and errors /v1 has.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { errorCodes } from '../http/errors.ts';
import { apiRateLimit } from '../rules/policy.ts';
import { operations, type Operation } from '../v1/operations.ts';

function heading(level: number, text: string): string {
  return `${'#'.repeat(Math.min(level, 6))} ${text}`;
}

function operationLine(op: Operation): string {
  return `GET /v1${op.path === '/' ? '/' : op.path}`;
}

function operationSection(op: Operation, catalogue: Catalogue, level: number): string[] {
  const params = Object.entries(op.query).map(
    ([name, param]) => `- \`${name}\`: ${param.description} Use ${param.accepted}.`,
  );
  const path = op.pathParam ? [`- \`${op.pathParam.name}\` (in the path): ${op.pathParam.description}`] : [];
  const errors = op.errors.map((code) => `\`${code}\` (${errorCodes[code]})`);
  return [
    heading(level, `${operationLine(op)} (${op.operationId})`),
    '',
    `${op.summary} ${op.description}`,
    '',
    `URL: ${catalogue.siteUrl}/v1${op.path === '/' ? '/' : op.path}`,
    '',
    ...(params.length + path.length > 0
      ? ['Parameters (all optional unless in the path; filters combine with AND):', '', ...path, ...params, '']
      : []),
    ...(errors.length > 0 ? [`Errors: ${errors.join(', ')}.`, ''] : []),
  ];
}

export function apiGuideMarkdown(catalogue: Catalogue, level = 2): string {
  const site = catalogue.siteUrl;
  const lines = [
    heading(level, 'The JSON API'),
    '',
    `Read-only and public: every operation under ${site}/v1/ is an HTTP GET, answers JSON and needs no key or token. ` +
      `The OpenAPI 3.1 description is ${site}/openapi.json and the developer page is ${site}/developers. ` +
      `The same operations are tools of the MCP server at ${site}/mcp.`,
    '',
    `Limit: ${apiRateLimit.requests} requests per ${apiRateLimit.windowSeconds} seconds per client IP. Every response carries ` +
      '`RateLimit-Policy`, `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`; over the limit the answer is 429 ' +
      '`rate_limited` with `Retry-After` in seconds. Catalogue answers may be cached for 5 minutes, departures for at most 60 seconds.',
    '',
    ...operations.flatMap((op) => operationSection(op, catalogue, level + 1)),
    heading(level + 1, 'Errors'),
    '',
    'Every error has one shape: `{"error": {"code", "message", "status", "documentationUrl", "hint"}}`. Branch on `code`; `hint` says how to fix the request when a fix exists.',
    '',
    '| code | HTTP status |',
    '| --- | --- |',
    ...Object.entries(errorCodes).map(([code, status]) => `| \`${code}\` | ${status} |`),
    '',
  ];
  return lines.join('\n');
}
