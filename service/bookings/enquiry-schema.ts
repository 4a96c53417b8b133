/**
 * The enquiry as one Zod schema: what POST /api/bookings and the MCP tool `send_enquiry` accept,
 * checked and cleaned in one pass (direction controls refused, then text cleaned, then bounds),
 * each refusal a sentence the person can act on. The endpoint's OpenAPI document is generated
 * from the same schema (service/bookings/openapi.ts), so what it says is what is checked.
 */
import { z } from 'astro/zod';
import { tripBySlug, type Catalogue, type TripPage } from '../../domain/catalogue/index.ts';
import { formatDateRange } from '../../domain/format.ts';
import type { Departure } from '../../domain/schemas/departure.ts';
import {
  charCount,
  cleanText,
  directionControlIn,
  emailPattern,
  enquiryBounds,
  enquiryFields,
  fieldMessages,
  groupSizeCap,
  groupSizeMessage,
  honeypotField,
  phonePattern,
  textFieldLabels,
  textLimits,
  tooLongMessage,
  type EnquiryCheck,
  type EnquiryField,
  type FieldError,
  type LimitedField,
} from './enquiry.ts';
import { namesOnlyPastDates, pastDatesMessage } from './past-dates.ts';
import { seatsRefusal } from './seats.ts';
import { quoted } from '../http/quoted.ts';

type TextField = keyof typeof textFieldLabels;

const isAbsent = (value: unknown) => value === undefined || value === null;

/**
 * Text as typed, refused outright when it holds a direction control (removing one would change
 * what was written, keeping it would show the team something else), then cleaned.
 */
function text(field: TextField, refusal: { missing: string; notText: string }, multiline = false) {
  return z
    .string({ error: (issue) => (isAbsent(issue.input) ? refusal.missing : refusal.notText) })
    .refine((value) => directionControlIn(value) === null, {
      error: (issue) =>
        `${textFieldLabels[field]} contains an invisible character (${directionControlIn(String(issue.input))}) that changes the direction of the text around it, so it would not read as typed. Please type it again without that character.`,
      abort: true,
    })
    .overwrite((value) => cleanText(value, multiline));
}

/** At most the field's limit in characters (code points, as JSON Schema's maxLength counts them). */
function withinLimit<T extends z.ZodString>(schema: T, field: LimitedField): T {
  return schema
    .refine((value) => charCount(value) <= textLimits[field], {
      error: (issue) => tooLongMessage(field, charCount(String(issue.input))),
    })
    .meta({ maxLength: textLimits[field] });
}

function required(schema: z.ZodString, missing: string): z.ZodString {
  return schema.refine((value) => value !== '', { error: missing, abort: true });
}

function optional(field: 'email' | 'preferredDeparture' | 'message', notText: string, multiline = false) {
  return text(field, { missing: notText, notText }, multiline);
}

const emailAddress = z.email({ pattern: emailPattern });

/** The largest group any published trip takes: the bound when the trip is not known yet. */
function largestGroup(catalogue: Catalogue): number {
  return Math.max(enquiryBounds.defaultGroupCap, ...catalogue.trips.map((page) => groupSizeCap(page.trip.groupSize)));
}

function build(catalogue: Catalogue, trip: TripPage | undefined) {
  const slugs = catalogue.trips.map((page) => page.trip.slug);
  const cap = trip ? groupSizeCap(trip.trip.groupSize) : largestGroup(catalogue);
  const groupRefusal = groupSizeMessage(cap, trip?.trip.name);
  const group = { error: groupRefusal };
  const missingSlug = fieldMessages.tripSlug.missing;
  const m = fieldMessages;

  return z.object({
    tripSlug: text('tripSlug', { missing: missingSlug, notText: missingSlug })
      .refine((value) => value !== '', { error: missingSlug, abort: true })
      .refine((value) => slugs.includes(value), {
        error: (issue) =>
          `We have no published trip ${quoted(issue.input) ? `called ${quoted(issue.input)}` : 'by the name given'}. Pick a trip from the catalogue.`,
      })
      .meta({ enum: slugs, description: 'The trip: a `slug` from GET /v1/trips.' }),
    name: withinLimit(required(text('name', m.name), m.name.missing), 'name').meta({
      pattern: '\\S',
      description: "The person's own name, as they gave it.",
    }),
    phone: withinLimit(required(text('phone', m.phone), m.phone.missing), 'phone')
      .refine((value) => phonePattern.test(value), { error: m.phone.invalid })
      .meta({
        pattern: phonePattern.source,
        description: `Their phone number, with the country code: ${enquiryBounds.phoneDigitsMin} to ${enquiryBounds.phoneDigitsMax} digits. A guide calls it back.`,
      }),
    email: withinLimit(optional('email', m.email.notText), 'email')
      .refine((value) => value === '' || emailAddress.safeParse(value).success, { error: m.email.invalid })
      .meta({ format: 'email' })
      .nullable()
      .optional()
      .describe('Optional: their email address, for a written reply as well.'),
    groupSize: z
      .int({ error: (issue) => (isAbsent(issue.input) ? m.groupSize.missing : groupRefusal) })
      .min(1, group)
      .max(cap, group)
      .describe(
        `How many people are coming: 1 to the trip's group-size cap (${trip ? cap : `at most ${cap} on any trip`}), and no more than the seats left on the departure \`preferredDeparture\` names.`,
      ),
    preferredDeparture: withinLimit(optional('preferredDeparture', m.preferredDeparture.notText), 'preferredDeparture')
      .nullable()
      .optional()
      .describe(
        `Optional: a departure \`id\` from GET /v1/departures, its dates as the site writes them ("${formatDateRange('2027-09-23', '2027-09-27')}"), or the dates wanted as text ("October 2027"). A departure named by its id or dates is checked for seats: a larger group than its seats left is refused. Dates that have all passed (every date named with a year is before today in India) are refused.`,
      ),
    message: withinLimit(optional('message', m.message.notText, true), 'message')
      .nullable()
      .optional()
      .describe('Optional: their questions, in their words. Line breaks are kept.'),
    [honeypotField]: z
      .union([z.literal(''), z.null()], {
        error: `The "${honeypotField}" field must be left empty. It is there to catch automated spam.`,
      })
      .optional()
      .describe('Leave out (or empty): a trap for automated spam in the web form; any other value is refused.'),
  });
}

export type EnquiryRequestSchema = ReturnType<typeof build>;

const built = new WeakMap<Catalogue, Map<string, EnquiryRequestSchema>>();

/**
 * The enquiry schema of this catalogue. For one trip, the group-size bound is that trip's cap;
 * without one (the published documents) it is the largest cap of any trip.
 */
export function enquiryRequestSchema(catalogue: Catalogue, trip?: TripPage): EnquiryRequestSchema {
  const schemas = built.get(catalogue) ?? new Map<string, EnquiryRequestSchema>();
  built.set(catalogue, schemas);
  const key = trip?.trip.slug ?? '';
  const schema = schemas.get(key) ?? build(catalogue, trip);
  schemas.set(key, schema);
  return schema;
}

/** The first problem of each field, in the order the schema checks them (the form's order). */
function firstPerField(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldError[] {
  const errors: FieldError[] = [];
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '') as EnquiryField;
    if (!errors.some((e) => e.field === field)) errors.push({ field, message: issue.message });
  }
  return errors;
}

const fieldOrder: readonly EnquiryField[] = [...enquiryFields, honeypotField];

/** Puts a field's problem among the others, in the order the form shows the fields. */
function insertInOrder(errors: FieldError[], error: FieldError): void {
  const after = errors.findIndex((e) => fieldOrder.indexOf(e.field) > fieldOrder.indexOf(error.field));
  errors.splice(after === -1 ? errors.length : after, 0, error);
}

/**
 * Checks a submitted enquiry (from JSON, a form or an MCP call). Every field's problem is
 * reported, the first one of each field, in the order the form shows them. Unknown fields are
 * ignored. `departures` are the trip's departures as read when the enquiry arrived: a group
 * larger than the seats left on the date it names is refused (seats.ts). Dates wanted that have
 * all passed by `now` (in India) are refused (past-dates.ts).
 */
export function checkEnquiry(
  input: Record<string, unknown>,
  catalogue: Catalogue,
  departures: readonly Departure[] = [],
  now: Date = new Date(),
): EnquiryCheck {
  const slug = typeof input.tripSlug === 'string' ? cleanText(input.tripSlug) : '';
  const trip = tripBySlug(catalogue, slug);
  const parsed = enquiryRequestSchema(catalogue, trip).safeParse(input);
  const errors = parsed.success ? [] : firstPerField(parsed.error.issues);
  const { groupSize, preferredDeparture } = input;
  const seats =
    typeof groupSize === 'number' &&
    typeof preferredDeparture === 'string' &&
    !errors.some((e) => e.field === 'groupSize')
      ? seatsRefusal(groupSize, preferredDeparture, departures)
      : null;
  if (seats) insertInOrder(errors, { field: 'groupSize', message: seats });
  if (
    typeof preferredDeparture === 'string' &&
    !errors.some((e) => e.field === 'preferredDeparture') &&
    namesOnlyPastDates(cleanText(preferredDeparture), now)
  )
    insertInOrder(errors, { field: 'preferredDeparture', message: pastDatesMessage });
  if (!parsed.success || errors.length > 0) return { ok: false, errors };
  const { tripSlug, name, phone, email, message } = parsed.data;
  return {
    ok: true,
    enquiry: {
      tripSlug,
      name,
      phone,
      email: email || null,
      groupSize: parsed.data.groupSize,
      preferredDeparture: parsed.data.preferredDeparture || null,
      message: message || null,
    },
  };
}
