/**
 * Zod schemas as the `components/schemas` of an OpenAPI 3.1 document: each named schema once,
 * the others referring to it by `$ref`. Both OpenAPI documents (the /v1 API, the enquiry
 * endpoint) are generated through here.
 */
import { z } from 'astro/zod';

type Json = Record<string, unknown>;

/**
 * `io: 'output'` describes what is sent (response bodies), `'input'` what is accepted (request
 * bodies, before the schema's own cleaning). A schema used twice must be named, or the
 * conversion would share it under a made-up name.
 */
export function jsonSchemaComponents(named: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io,
    uri: (id) => `#/components/schemas/${id}`,
    // `.int()` adds the safe-integer range; it says nothing a client needs.
    override: ({ jsonSchema }) => {
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
    },
  });
  if ('__shared' in schemas) throw new Error('a schema is shared between components without a name; register it');
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { $schema: _dialect, $id: _id, ...rest } = schema as Json;
      return [id, rest];
    }),
  );
}
