/**
 * The schemas' mistakes in plain sentences, as an editor reads them after the file and the
 * field: `must be one of "Easy", "Moderate" (not "Hard")`, `is required`. One map for the build,
 * `npm run check` and the live functions' reader (domain/catalogue/content-files.ts), so they
 * word every problem the same way. A message a schema gives itself always wins over this map.
 */
import type { z } from 'astro/zod';
import leven from 'leven';

type Issue = z.core.$ZodRawIssue;

/** A value as the editor wrote it, short enough for one line. */
function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (value === null) return 'empty (null)';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a group of fields';
  if (typeof value === 'number' || typeof value === 'boolean' || value === undefined) return String(value);
  return typeof value;
}

const kinds: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a group of fields',
  date: 'a date',
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const lengthOf = (input: unknown) => (typeof input === 'string' || Array.isArray(input) ? input.length : 0);

function tooSmall(issue: Extract<Issue, { code: 'too_small' }>): string {
  const min = Number(issue.minimum);
  const length = lengthOf(issue.input);
  if (issue.origin === 'string')
    return min <= 1 ? 'must not be empty' : `must be at least ${plural(min, 'character')} long (it has ${length})`;
  if (issue.origin === 'array' || issue.origin === 'set')
    return `needs at least ${plural(min, 'item')} (it has ${length})`;
  return `${issue.inclusive ? 'must be at least' : 'must be more than'} ${min} (it is ${shown(issue.input)})`;
}

function tooBig(issue: Extract<Issue, { code: 'too_big' }>): string {
  const max = Number(issue.maximum);
  const length = lengthOf(issue.input);
  if (issue.origin === 'string') return `must be at most ${plural(max, 'character')} long (it has ${length})`;
  if (issue.origin === 'array' || issue.origin === 'set')
    return `can have at most ${plural(max, 'item')} (it has ${length})`;
  return `${issue.inclusive ? 'must be at most' : 'must be less than'} ${max} (it is ${shown(issue.input)})`;
}

function badFormat(issue: Extract<Issue, { code: 'invalid_format' }>): string {
  switch (issue.format) {
    case 'url':
      return `must be a full web address starting with https:// (it is ${shown(issue.input)})`;
    case 'email':
      return `must be an email address (it is ${shown(issue.input)})`;
    case 'date':
      return `${shown(issue.input)} is not a real date; write it as YYYY-MM-DD, for example 2026-04-30`;
    case 'regex':
      return `${shown(issue.input)} must match the pattern ${'pattern' in issue ? String(issue.pattern) : ''}`;
    default:
      return `must be a valid ${issue.format} (it is ${shown(issue.input)})`;
  }
}

/**
 * A field as an editor names it: a place in a list counted from 1, as the file reads and as the
 * messages count ("itinerary.2.walkingHours" is day 2's), never from 0 as the schemas do.
 */
export function fieldName(path: readonly PropertyKey[]): string {
  return path.map((key) => (typeof key === 'number' ? String(key + 1) : String(key))).join('.');
}

/** The field an editor most likely meant by `key`: one the record takes, a slip of a letter or two away. */
function meant(key: string, known: readonly string[]): string | undefined {
  let best: { field: string; distance: number } | undefined;
  for (const field of known) {
    const distance = field.toLowerCase() === key.toLowerCase() ? 0 : leven(field, key);
    if (distance <= Math.max(1, Math.floor(key.length / 4)) && (!best || distance < best.distance))
      best = { field, distance };
  }
  return best?.field;
}

/** Fields a record does not take, each with the one it probably meant: a misspelt optional field would otherwise be dropped without a word. */
function unknownFields(issue: Extract<Issue, { code: 'unrecognized_keys' }>): string {
  const shape = (issue.inst as { _zod?: { def?: { shape?: Record<string, unknown> } } } | undefined)?._zod?.def?.shape;
  const known = shape ? Object.keys(shape).filter((field) => !issue.keys.includes(field)) : [];
  let guessed = true;
  const each = issue.keys.map((key) => {
    const field = meant(key, known);
    guessed &&= field !== undefined;
    return field ? `"${key}" (did you mean "${field}"?)` : `"${key}"`;
  });
  const fields = !guessed && known.length > 0 ? `; the fields it takes are ${known.join(', ')}` : '';
  return `has ${each.length === 1 ? 'a field' : 'fields'} it does not take: ${each.join(', ')}${fields}`;
}

/** A form of a union, as the messages its own check gave. */
function unionForm(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((i) => (i.path.length > 0 ? `${fieldName(i.path)} ${i.message}` : i.message)).join(', ');
}

export const contentErrorMap: z.core.$ZodErrorMap = (issue) => {
  if (issue.input === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_union'))
    return 'is required';
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${kinds[issue.expected] ?? issue.expected}, not ${shown(issue.input)}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${shown(issue.values[0])} (it is ${shown(issue.input)})`
        : `must be one of ${issue.values.map(shown).join(', ')} (it is ${shown(issue.input)})`;
    case 'too_small':
      return tooSmall(issue);
    case 'too_big':
      return tooBig(issue);
    case 'invalid_format':
      return badFormat(issue);
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)} (it is ${shown(issue.input)})`;
    case 'unrecognized_keys':
      return unknownFields(issue);
    case 'invalid_union':
      return `matches none of the forms it may take: ${issue.errors.map(unionForm).join('; or ')}`;
    default:
      return undefined;
  }
};
