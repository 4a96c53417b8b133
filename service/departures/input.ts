/**
 * The shapes of departure input from people: CLI options and CSV cells arrive as text and are
 * turned into typed values here. Form only (a whole number, a real date, a known status);
 * the rules between fields and against the catalogue are in validation.ts.
 */
import { z } from 'astro/zod';
import { departureStatuses, listOf, slug } from '../../domain/schemas/vocabulary.ts';
import type { Issue } from './validation.ts';

const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : value);
const blankIsNull = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : trimmed(value));

/** "12", "1,25,000" and "125000" are numbers; "" is "not set". */
const wholeNumber = z.preprocess(
  (value) => {
    const v = blankIsNull(value);
    if (typeof v !== 'string') return v;
    const digits = v.replace(/[,_ ]/g, '');
    return /^-?\d+$/.test(digits) ? Number(digits) : v;
  },
  z.number({ error: 'must be a whole number' }).int({ error: 'must be a whole number' }).nullable(),
);

const isoDay = z.iso.date({
  error: (issue) => `"${String(issue.input)}" is not a real date; write it as YYYY-MM-DD, for example 2027-05-14`,
});

/** "sold out", "Sold-Out" and "sold_out" all mean sold_out. */
const status = z.preprocess(
  (value) =>
    typeof value === 'string'
      ? value
          .trim()
          .toLowerCase()
          .replace(/[\s-]+/g, '_')
      : value,
  z.enum(departureStatuses, { error: `must be one of ${listOf(departureStatuses)}` }),
);

const yesNo = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value;
    const v = value.trim().toLowerCase();
    if (['yes', 'y', 'true', '1', 'published'].includes(v)) return true;
    if (['no', 'n', 'false', '0', 'hidden'].includes(v)) return false;
    return value;
  },
  z.boolean({ error: 'must be yes or no' }),
);

/** "trip" (or blank) means "use the trip's price". */
const price = z.preprocess(
  (value) => (typeof value === 'string' && value.trim().toLowerCase() === 'trip' ? null : value),
  wholeNumber,
);

const note = z.preprocess(blankIsNull, z.string().nullable());

/** One departure as the CLI's `add` and a CSV row give it; blanks are filled in by the store. */
export const departureInput = z.strictObject({
  id: z.preprocess(blankIsNull, slug.nullable()).optional(),
  tripSlug: z.preprocess(trimmed, slug),
  startDate: z.preprocess(trimmed, isoDay),
  endDate: z.preprocess(blankIsNull, isoDay.nullable()).optional(),
  status: z.preprocess(blankIsNull, status.nullable()).optional(),
  priceInr: price.optional(),
  seatsTotal: wholeNumber.optional(),
  seatsLeft: wholeNumber.optional(),
  note: note.optional(),
  published: z.preprocess(blankIsNull, yesNo.nullable()).optional(),
});
export type DepartureInput = z.infer<typeof departureInput>;

/** What `update` may change; absent fields stay as they are, blank clears an optional one. */
export const departureChanges = z.strictObject({
  startDate: z.preprocess(trimmed, isoDay).optional(),
  endDate: z.preprocess(trimmed, isoDay).optional(),
  status: status.optional(),
  priceInr: price.optional(),
  seatsTotal: wholeNumber.optional(),
  seatsLeft: wholeNumber.optional(),
  note: note.optional(),
});
export type DepartureChanges = z.infer<typeof departureChanges>;

/** The columns of the CSV file, in order; the same names as the API's Departure fields. */
export const csvColumns = [
  'id',
  'tripSlug',
  'startDate',
  'endDate',
  'status',
  'priceInr',
  'seatsTotal',
  'seatsLeft',
  'note',
  'published',
] as const;

/** Zod's issues as "field: what is wrong". */
export function inputIssues(error: z.ZodError): Issue[] {
  return error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : 'input';
    const message =
      issue.code === 'unrecognized_keys'
        ? `unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}; the fields are ${csvColumns.join(', ')}`
        : issue.message;
    return { field: issue.code === 'unrecognized_keys' ? 'input' : field, message };
  });
}
