/**
 * The published shapes of the discovery documents, as JSON Schema (draft 2020-12), checked with
 * Ajv: the MCP server card (schema v1 of the server-card extension, `_meta` as MCP names its keys), the Agent Skills discovery
 * index v0.2.0, the RFC 9727 linkset and the AI Catalog 1.0 entry members.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);

const url = { type: 'string', format: 'uri', pattern: '^https?://' };

export const serverCardSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['$schema', 'name', 'version', 'description'],
  properties: {
    $schema: { const: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json' },
    name: { type: 'string', minLength: 3, maxLength: 200, pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$' },
    title: { type: 'string', minLength: 1, maxLength: 100 },
    version: { type: 'string', maxLength: 255, pattern: '^\\d+\\.\\d+\\.\\d+' },
    description: { type: 'string', minLength: 1, maxLength: 100 },
    websiteUrl: url,
    remotes: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'url'],
        properties: {
          type: { enum: ['streamable-http', 'sse'] },
          url: { type: 'string', pattern: '^(https?://[^\\s]+|\\{[a-zA-Z_][a-zA-Z0-9_]*\\}[^\\s]*)$' },
          supportedProtocolVersions: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    // MCP's `_meta`: keys an optional reverse-DNS prefix and a slash, then a name; prefixes naming
    // modelcontextprotocol or mcp (`io.modelcontextprotocol/`, `mcp.dev/`) are MCP's own.
    _meta: {
      type: 'object',
      propertyNames: {
        pattern:
          '^([A-Za-z]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z]([A-Za-z0-9-]*[A-Za-z0-9])?)*/)?([A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?)?$',
        not: { pattern: '^([^/]*\\.)?(modelcontextprotocol|mcp)\\.[^/.]+/' },
      },
    },
  },
};

export const skillsIndexSchema = {
  type: 'object',
  required: ['$schema', 'skills'],
  properties: {
    $schema: { const: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json' },
    skills: {
      type: 'array',
      minItems: 3,
      items: {
        type: 'object',
        required: ['name', 'type', 'description', 'url', 'digest'],
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' },
          type: { enum: ['skill-md', 'archive'] },
          description: { type: 'string', minLength: 1, maxLength: 1024 },
          url: { type: 'string', minLength: 1 },
          digest: { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' },
        },
      },
    },
  },
};

const link = {
  type: 'array',
  minItems: 1,
  items: { type: 'object', required: ['href'], properties: { href: url, type: { type: 'string' } } },
};

export const apiCatalogSchema = {
  type: 'object',
  required: ['linkset'],
  properties: {
    linkset: {
      type: 'array',
      minItems: 1,
      items: { type: 'object', required: ['anchor'], properties: { anchor: url }, additionalProperties: link },
    },
  },
};

export const aiCatalogSchema = {
  type: 'object',
  required: ['specVersion', 'entries'],
  properties: {
    specVersion: { const: '1.0' },
    host: { type: 'object', required: ['displayName'] },
    entries: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['identifier', 'displayName', 'type', 'mediaType'],
        properties: {
          identifier: { type: 'string', pattern: '^urn:air:[^:]+:.+:[^:]+$' },
          url,
          tags: { type: 'array', items: { type: 'string' } },
        },
        oneOf: [{ required: ['url'] }, { required: ['data'] }],
      },
    },
  },
};

/** The validation errors of `data` against `schema`, as readable lines (empty when valid). */
export function problems(schema: object, data: unknown): string[] {
  const validate = ajv.compile(schema);
  return validate(data) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}
