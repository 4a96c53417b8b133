/**
 * Checks real responses against the published OpenAPI document: status, content type, body
 * (Ajv, JSON Schema 2020-12) and declared headers, by operationId and status. Any test folder
 * can use it: `contract.check('listTrips', await observe(res))` returns the problems, none when
 * the response is what the document promises.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { rateLimitHeaderNames } from '../../service/rules/policy.ts';

type Json = Record<string, any>;

export interface ObservedResponse {
  status: number;
  headers: Headers;
  /** The raw body; empty for HEAD, 304 and 204. */
  text: string;
}

export async function observe(response: Response): Promise<ObservedResponse> {
  return { status: response.status, headers: response.headers, text: await response.text() };
}

export interface CheckOptions {
  /** A HEAD request: the headers of the GET response, and no body. */
  head?: boolean;
  /** The response came from handleV1 directly, not through the request rules, so it has no rate-limit headers. */
  withoutRequestRules?: boolean;
}

const rateLimitHeaders = new Set<string>(rateLimitHeaderNames);

/** `#/components/...` references, rebased onto the document registered in Ajv as `oas`. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `oas${value}` : rebase(value),
    ]),
  );
}

/** A header value as the type its schema declares (headers travel as text). */
function headerValue(raw: string, schema: Json): unknown {
  return (schema.type === 'integer' || schema.type === 'number') && /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
}

export class OpenApiContract {
  readonly document: Json;
  readonly #ajv: Ajv2020;
  readonly #compiled = new Map<string, ValidateFunction>();
  readonly #basePath: string;

  constructor(document: Json) {
    this.document = document;
    // Strict, so a misspelt keyword in a generated schema fails loudly. Known besides JSON Schema:
    // OpenAPI's `example`, and `components`, the key of the wrapper the document is registered in.
    this.#ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
    addFormats(this.#ajv);
    this.#ajv.addVocabulary(['example', 'components']);
    this.#ajv.addSchema({ $id: 'oas', components: document.components });
    this.#basePath = new URL(document.servers[0].url).pathname.replace(/\/+$/, '');
  }

  static fromFile(file: string): OpenApiContract {
    return new OpenApiContract(JSON.parse(readFileSync(file, 'utf8')));
  }

  /** The document a built site publishes, e.g. `OpenApiContract.fromSite(inject('fixtureSite'))`. */
  static fromSite(siteDir: string): OpenApiContract {
    return OpenApiContract.fromFile(path.join(siteDir, 'dist', 'site', 'openapi.json'));
  }

  /** Every operationId of the document, in document order. */
  operationIds(): string[] {
    return Object.values(this.document.paths).flatMap((item: any) =>
      Object.values(item).map((op: any) => op.operationId),
    );
  }

  #operation(operationId: string): Json {
    for (const item of Object.values<Json>(this.document.paths)) {
      for (const op of Object.values(item) as Json[]) if (op.operationId === operationId) return op;
    }
    throw new Error(`no operation ${operationId} in the document`);
  }

  #resolve(object: Json): Json {
    if (typeof object.$ref !== 'string') return object;
    const found = object.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((at: any, key: string) => at?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], this.document);
    if (!found) throw new Error(`unresolved ${object.$ref}`);
    return this.#resolve(found);
  }

  #validator(schema: Json): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.#compiled.get(key);
    if (!validate) {
      const ref =
        typeof schema.$ref === 'string' && schema.$ref.startsWith('#/components/') && Object.keys(schema).length === 1
          ? `oas${schema.$ref}`
          : undefined;
      validate = ref ? this.#ajv.getSchema(ref) : this.#ajv.compile(rebase(schema) as Json);
      if (!validate) throw new Error(`cannot compile ${key.slice(0, 200)}`);
      this.#compiled.set(key, validate);
    }
    return validate;
  }

  /** Problems of `value` against a schema of the document (inline, or a `#/components/...` reference). */
  schemaProblems(schema: Json, value: unknown, where = 'value'): string[] {
    const validate = this.#validator(schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (e) => `${where}${e.instancePath} ${e.message ?? 'is invalid'}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
    );
  }

  /** Problems of a response (document object) against what was received. */
  #responseProblems(declared: Json, observed: ObservedResponse, options: CheckOptions): string[] {
    const problems: string[] = [];
    for (const [name, header] of Object.entries<Json>(declared.headers ?? {})) {
      if (options.withoutRequestRules && rateLimitHeaders.has(name)) continue;
      const definition = this.#resolve(header);
      const raw = observed.headers.get(name);
      if (raw === null) {
        if (definition.required) problems.push(`header ${name} is missing`);
        continue;
      }
      problems.push(...this.schemaProblems(definition.schema, headerValue(raw, definition.schema), `header ${name}`));
    }
    const content = declared.content as Json | undefined;
    if (!content) {
      if (observed.text !== '') problems.push(`status ${observed.status} declares no body, but one was sent`);
      return problems;
    }
    const contentType = observed.headers.get('content-type') ?? '';
    const mediaType = contentType.split(';')[0]?.trim() ?? '';
    const media = content[mediaType];
    if (!media)
      return [...problems, `content-type ${contentType || '(none)'} is not one of ${Object.keys(content).join(', ')}`];
    if (
      mediaType === 'application/json' &&
      contentType.replace(/\s/g, '').toLowerCase() !== 'application/json;charset=utf-8'
    ) {
      problems.push(`content-type ${contentType} lacks charset=utf-8`);
    }
    if (options.head) {
      if (observed.text !== '') problems.push('HEAD response has a body');
      return problems;
    }
    let body: unknown;
    try {
      body = JSON.parse(observed.text);
    } catch {
      return [...problems, `body is not JSON: ${observed.text.slice(0, 80)}`];
    }
    return [...problems, ...this.schemaProblems(media.schema, body, 'body')];
  }

  /** Problems of one response to `operationId`; empty when it is what the document promises. */
  check(operationId: string, observed: ObservedResponse, options: CheckOptions = {}): string[] {
    const responses = this.#operation(operationId).responses as Json;
    const declared =
      responses[String(observed.status)] ?? responses[`${String(observed.status)[0]}XX`] ?? responses.default;
    if (!declared)
      return [
        `${operationId} does not declare status ${observed.status} (declares ${Object.keys(responses).join(', ')})`,
      ];
    return this.#responseProblems(this.#resolve(declared), observed, options);
  }

  /**
   * Problems of an error answer to a path that is no operation (404 `endpoint_not_found`): the
   * document describes it in prose, so it is held to ErrorBody and the headers every error carries.
   */
  checkUnmatched(observed: ObservedResponse, options: CheckOptions = {}): string[] {
    const headers = options.withoutRequestRules
      ? {}
      : Object.fromEntries(
          [...rateLimitHeaders]
            .filter((n) => n !== 'Retry-After')
            .map((n) => [n, { $ref: `#/components/headers/${n}` }]),
        );
    const problems = this.#responseProblems(
      { headers, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } },
      observed,
      options,
    );
    if (!options.head && problems.length === 0) {
      const { error } = JSON.parse(observed.text) as { error: { status: number } };
      if (error.status !== observed.status)
        problems.push(`body status ${error.status} differs from HTTP status ${observed.status}`);
    }
    return problems;
  }

  /** The operation a GET of `pathname` reaches, by the document's path templates (as the router matches). */
  operationAt(pathname: string): string | undefined {
    if (pathname !== this.#basePath && !pathname.startsWith(`${this.#basePath}/`)) return undefined;
    const rest = pathname.slice(this.#basePath.length).replace(/\/+$/, '') || '/';
    const segments = rest === '/' ? [] : rest.split('/').slice(1);
    for (const [template, item] of Object.entries<Json>(this.document.paths)) {
      const parts = template === '/' ? [] : template.split('/').slice(1);
      if (parts.length !== segments.length) continue;
      if (parts.every((part, i) => (part.startsWith('{') ? (segments[i] ?? '') !== '' : part === segments[i])))
        return item.get?.operationId;
    }
    return undefined;
  }

  /**
   * Problems of the answer to any request under the API: by operation where the path names one,
   * else as an unmatched path. Methods the API refuses are held to the operation's 405.
   */
  checkRequest(method: string, pathname: string, observed: ObservedResponse, options: CheckOptions = {}): string[] {
    const operationId = this.operationAt(pathname);
    const head = method === 'HEAD' || options.head === true;
    // OPTIONS on an operation's path is the CORS preflight: 204, no body.
    if (operationId && method === 'OPTIONS' && observed.status === 204)
      return observed.text === '' ? [] : ['OPTIONS answered with a body'];
    if (operationId) return this.check(operationId, observed, { ...options, head });
    // The router refuses a method before it looks at the path.
    if (observed.status === 405 || observed.status === 429 || observed.status === 406)
      return this.check(this.operationIds()[0]!, observed, { ...options, head });
    return this.checkUnmatched(observed, { ...options, head });
  }
}
