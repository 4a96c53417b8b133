/**
 * The enquiry as the trip pages' web form posts it (application/x-www-form-urlencoded), for the
 * enquiry OpenAPI document: derived from the JSON request schema (itself generated from the
 * endpoint's Zod schema), so a rule changed there changes here. A form sends every field as text,
 * and a field left blank as an empty text: the group size is digits (service/bookings/body.ts
 * reads them as the number), an optional field may be empty, and nothing is ever null. The form
 * also carries its one-time token, which a JSON client sends as the Idempotency-Key header.
 */
import { formNumberPattern } from './body.ts';
import { formTokenField } from './enquiry.ts';
import { maxKeyLength } from './idempotency.ts';

type Json = Record<string, unknown>;

/** The schema without its `null` alternative: a form cannot send null. */
function withoutNull(schema: Json): Json {
  const alternatives = (schema.anyOf as Json[] | undefined)?.filter((s) => s.type !== 'null');
  if (!alternatives || alternatives.length !== 1) return schema;
  const { anyOf: _anyOf, ...rest } = schema;
  return { ...rest, ...alternatives[0] };
}

/** Whether an empty text fits the schema as it stands (no format, pattern, minimum length or fixed value excludes it). */
function takesEmptyText(schema: Json): boolean {
  return (
    schema.format === undefined &&
    schema.pattern === undefined &&
    !((schema.minLength as number) > 0) &&
    schema.enum === undefined &&
    (schema.const === undefined || schema.const === '')
  );
}

function formField(schema: Json, required: boolean): Json {
  const field = withoutNull(schema);
  if (field.type === 'integer' || field.type === 'number') {
    const { description } = field;
    return {
      type: 'string',
      pattern: formNumberPattern.source,
      ...(typeof description === 'string' ? { description: `${description} In the form: the number in digits.` } : {}),
    };
  }
  if (required || takesEmptyText(field)) return field;
  const { description, ...rest } = field;
  return {
    ...(typeof description === 'string' ? { description: `${description} Left blank in the form: empty.` } : {}),
    anyOf: [rest, { type: 'string', maxLength: 0 }],
  };
}

/** The form's fields, from the JSON request schema (its `properties` and `required`), and its one-time token. */
export function formRequestSchema(json: Json): Json {
  const required = (json.required as string[] | undefined) ?? [];
  const properties = {
    ...Object.fromEntries(
      Object.entries(json.properties as Record<string, Json>).map(([name, schema]) => [
        name,
        formField(schema, required.includes(name)),
      ]),
    ),
    [formTokenField]: {
      type: 'string',
      maxLength: maxKeyLength,
      description:
        "The form's one-time token: the same enquiry sent again with it is taken once, as with the Idempotency-Key header. Empty or absent: the form is keyed by its own fields.",
    },
  };
  return {
    type: 'object',
    properties,
    required,
    description: 'The same fields as the JSON body, as the web form posts them: every value is text.',
  };
}
