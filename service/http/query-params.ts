/**
 * Query-string parsing for /v1: each operation declares its parameters once (schema, accepted
 * form, description) and gets typed values back, or a 400 `invalid_parameter` whose hint names
 * the accepted form. The same declarations feed the OpenAPI document and the MCP tools' inputs.
 */
import { z } from 'astro/zod';
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { ApiError } from './errors.ts';
import { quoted } from './quoted.ts';

export interface QueryParameter<T = unknown> {
  schema: z.ZodType<T>;
  /** Plain-language accepted form, used in the hint. */
  accepted: string;
  description: string;
  /** JSON Schema of the raw query value, for the OpenAPI document. */
  openapi: Record<string, unknown>;
  /** A value that finds something in this catalogue, for the OpenAPI document's examples. */
  example?: (catalogue: Catalogue) => string | undefined;
  /**
   * The parameter as a JSON argument (an MCP tool's input): its natural JSON type, or the same
   * text the query string takes. Read through `toolArgument`, which also holds every value to
   * `schema`, so a tool accepts exactly what /v1 accepts.
   */
  argument: z.ZodType;
}

export type QueryParameters = Record<string, QueryParameter<unknown>>;

/** The typed values of a query string read against `P`: each declared parameter, when given. */
export type Parsed<P extends QueryParameters> = { [K in keyof P]?: P[K] extends QueryParameter<infer T> ? T : never };

/** The message of an argument that fits none of its JSON shapes (the value repeated only when plain: quoted.ts). */
const notAccepted = (accepted: string) => ({
  error: (issue: { input?: unknown }) =>
    `${quoted(issue.input) ?? 'The value given'} is not accepted: use ${accepted}.`,
});

export const booleanParam = (description: string): QueryParameter<boolean> => ({
  schema: z.enum(['true', 'false']).transform((v) => v === 'true'),
  accepted: '"true" or "false"',
  description,
  openapi: { type: 'boolean' },
  argument: z.union(
    [z.boolean(), z.enum(['true', 'false'])],
    notAccepted(`true or false, as a JSON boolean or as text`),
  ),
});

const positiveIntegerAccepted = 'a whole number from 1 to 999999999, digits only';

export const positiveIntegerParam = (description: string): QueryParameter<number> => ({
  schema: z
    .string()
    .regex(/^[0-9]{1,9}$/)
    .transform(Number)
    .pipe(z.number().int().min(1)),
  accepted: positiveIntegerAccepted,
  description,
  openapi: { type: 'integer', minimum: 1, maximum: 999999999 },
  // As text: 1 to 9 digits, not all zeros (leading zeros are digits too, as in the query string).
  argument: z.union(
    [
      z.int().min(1).max(999999999),
      z
        .string()
        .max(9)
        .regex(/^0*[1-9][0-9]*$/),
    ],
    notAccepted(`${positiveIntegerAccepted}, as a JSON number or as text`),
  ),
});

/** Month 01 to 12, day 01 to 31: as close as a pattern gets; the calendar itself is checked in code. */
const datePattern = /^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$/;
const dateAccepted = 'a calendar date written YYYY-MM-DD (for example "2027-09-20")';

/** A real calendar day written YYYY-MM-DD: 2027-02-30 is refused, not read as 2 March. */
function isCalendarDate(text: string): boolean {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

export const dateParam = (description: string): QueryParameter<string> => ({
  schema: z.string().regex(datePattern).refine(isCalendarDate),
  accepted: dateAccepted,
  description,
  openapi: { type: 'string', format: 'date', pattern: datePattern.source },
  argument: z.string().regex(datePattern, notAccepted(dateAccepted)),
});

/** Text matched anywhere in a trip's region, in any letter case. */
export const regionParam = (description: string): QueryParameter<string> => ({
  schema: z.string().min(2).max(60),
  accepted: 'text of 2 to 60 characters, matched case-insensitively anywhere in the region (for example "ladakh")',
  description,
  openapi: { type: 'string', minLength: 2, maxLength: 60 },
  example: (c: Catalogue) => c.trips[0]?.trip.region.split(',')[0]?.trim().toLowerCase(),
  argument: z.string().min(2).max(60),
});

/** A regular expression for `values` in any letter case, written out so JSON Schema (which has no flags) can carry it. */
function anyCasePattern(values: readonly string[]): RegExp {
  const letters = (value: string) =>
    [...value]
      .map((c) =>
        c.toLowerCase() === c.toUpperCase()
          ? c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
          : `[${c.toUpperCase()}${c.toLowerCase()}]`,
      )
      .join('');
  return new RegExp(`^(${values.map(letters).join('|')})$`);
}

export const enumParam = <T extends string>(
  values: readonly T[],
  description: string,
  opts: { caseInsensitive?: boolean; omitHint?: string } = {},
): QueryParameter<T> => ({
  schema: z.string().transform((raw, ctx) => {
    const found = values.find((v) => (opts.caseInsensitive ? v.toLowerCase() === raw.toLowerCase() : v === raw));
    if (found === undefined) {
      ctx.addIssue({ code: 'custom', message: 'not an accepted value' });
      return z.NEVER;
    }
    return found;
  }),
  accepted: `one of ${values.map((v) => `"${v}"`).join(', ')}${opts.caseInsensitive ? ' (any letter case)' : ''}${opts.omitHint ? `; ${opts.omitHint}` : ''}`,
  description,
  // The canonical spellings as an enum, so generated clients list them; a parameter matched in any
  // letter case says so in its description (JSON Schema has no case-insensitive enum).
  openapi: { type: 'string', enum: [...values] },
  argument: opts.caseInsensitive
    ? z
        .string()
        .regex(
          anyCasePattern(values),
          notAccepted(`one of ${values.map((v) => `"${v}"`).join(', ')}, in any letter case`),
        )
    : z.enum(
        values as readonly string[] as [string, ...string[]],
        notAccepted(`one of ${values.map((v) => `"${v}"`).join(', ')}`),
      ),
});

/**
 * The MCP tool argument of a query parameter: its declared JSON shape, and every value held to
 * the /v1 parser as the text it becomes in the query string, so the two accept the same values.
 */
export function toolArgument(name: string, param: QueryParameter): z.ZodType {
  const refusal = (input: unknown) =>
    `${quoted(input) ?? 'The value given'} is not a valid value for "${name}": use ${param.accepted} (invalid_parameter).`;
  return param.argument
    .refine((value) => param.schema.safeParse(String(value)).success, { error: (issue) => refusal(issue.input) })
    .describe(`${param.description} Accepts ${param.accepted}.`);
}

/** Anything a caller can put in a query string that we refuse before looking at values. */
const maxQueryLength = 2048;

export function parseQuery<P extends QueryParameters>(url: URL, params: P): Parsed<P> {
  if (url.search.length > maxQueryLength) {
    throw new ApiError('invalid_parameter', {
      message: `The query string is ${url.search.length} characters long; the limit is ${maxQueryLength}.`,
      hint: 'Send only the documented filters.',
    });
  }
  const names = Object.keys(params);
  const result: Record<string, unknown> = {};
  const seen = new Set<string>();
  for (const [name, raw] of url.searchParams) {
    // Own declarations only: `constructor` or `__proto__` must not find Object.prototype's.
    const param = Object.hasOwn(params, name) ? params[name] : undefined;
    if (!param) {
      throw new ApiError('invalid_parameter', {
        message: `Unknown query parameter "${name.slice(0, 60)}".`,
        hint:
          names.length > 0
            ? `Accepted parameters here: ${names.join(', ')}.`
            : 'This operation takes no query parameters.',
      });
    }
    if (seen.has(name)) {
      throw new ApiError('invalid_parameter', {
        message: `The parameter "${name}" is given more than once.`,
        hint: `Give "${name}" once; filters combine with AND across different parameters.`,
      });
    }
    seen.add(name);
    const parsed = param.schema.safeParse(raw);
    if (!parsed.success) {
      throw new ApiError('invalid_parameter', {
        message: `"${raw.slice(0, 80)}" is not a valid value for "${name}".`,
        hint: `Use ${param.accepted}.`,
      });
    }
    result[name] = parsed.data;
  }
  return result as Parsed<P>;
}
