/**
 * The enquiry as one Zod schema: what POST /api/bookings and the MCP tool `send_enquiry` accept,
 * checked and cleaned in one pass (direction controls refused, then text cleaned, then bounds),
 * each refusal a sentence the person can act on. The endpoint's OpenAPI document is generated
 * from the same schema (service/bookings/openapi.ts), so what it says is what is checked.
 */
import { z } from 'astro/zod';
import type { Catalogue, TripPage } from '../../domain/catalogue/index.ts';
import {
  charCount,
  cleanText,
  directionControlIn,
  enquiryBounds,
  groupSizeCap,
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
    .refine((value) => charCount(value) <= textLimits[field], { error: (issue) => tooLongMessage(field, charCount(String(issue.input))) })
    .meta({ maxLength: textLimits[field] }) as T;
}

function required(schema: z.ZodString, missing: string): z.ZodString {
  return schema.refine((value) => value !== '', { error: missing, abort: true });
}

function optional(field: 'email' | 'preferredDeparture' | 'message', notText: string, multiline = false) {
  return text(field, { missing: notText, notText }, multiline);
}

const emailAddress = z.email();

/** The largest group any published trip takes: the bound when the trip is not known yet. */
function largestGroup(catalogue: Catalogue): number {
  return Math.max(enquiryBounds.defaultGroupCap, ...catalogue.trips.map((page) => groupSizeCap(page.trip.groupSize)));
}

function build(catalogue: Catalogue, trip: TripPage | undefined) {
  const slugs = catalogue.trips.map((page) => page.trip.slug);
  const cap = trip ? groupSizeCap(trip.trip.groupSize) : largestGroup(catalogue);
  const groupRefusal = `Group size must be a whole number from 1 to ${cap}${trip ? ` for ${trip.trip.name}` : ''}. For a larger group, enter ${cap} and say how many you are in your message.`;
  const group = { error: groupRefusal };
  const missingSlug = 'Choose the trip you are asking about (tripSlug is missing).';

  return z.object({
    tripSlug: text('tripSlug', { missing: missingSlug, notText: missingSlug })
      .refine((value) => value !== '', { error: missingSlug, abort: true })
      .refine((value) => slugs.includes(value), {
        error: (issue) => `We have no published trip called "${String(issue.input).slice(0, 60)}". Pick a trip from the catalogue.`,
      })
      .meta({ enum: slugs, description: 'The trip: a `slug` from GET /v1/trips.' }),
    name: withinLimit(
      required(text('name', { missing: 'Tell us your name so the guide knows whom to ask for.', notText: 'Your name must be text.' }), 'Tell us your name so the guide knows whom to ask for.'),
      'name',
    ).meta({ pattern: '\\S', description: "The person's own name, as they gave it." }),
    phone: withinLimit(
      required(text('phone', { missing: 'Give a phone number so a guide can call you back.', notText: 'Give the phone number as text, for example "+91 98765 43210".' }), 'Give a phone number so a guide can call you back.'),
      'phone',
    )
      .refine((value) => phonePattern.test(value), {
        error: `Give a phone number of ${enquiryBounds.phoneDigitsMin} to ${enquiryBounds.phoneDigitsMax} digits, for example +91 98765 43210; only digits, spaces, dashes, brackets and a leading + are allowed.`,
      })
      .meta({ pattern: phonePattern.source, description: `Their phone number, with the country code: ${enquiryBounds.phoneDigitsMin} to ${enquiryBounds.phoneDigitsMax} digits. A guide calls it back.` }),
    email: withinLimit(optional('email', 'The email address must be text, such as asha@example.com.'), 'email')
      .refine((value) => value === '' || emailAddress.safeParse(value).success, {
        error: 'Give an email address such as asha@example.com, or leave the field empty: a guide calls you either way.',
      })
      .meta({ format: 'email' })
      .nullable()
      .optional()
      .describe('Optional: their email address, for a written reply as well.'),
    groupSize: z
      .int({ error: (issue) => (isAbsent(issue.input) ? 'Say how many people are coming.' : groupRefusal) })
      .min(1, group)
      .max(cap, group)
      .describe(`How many people are coming: 1 to the trip's group-size cap (${trip ? cap : `at most ${cap} on any trip`}).`),
    preferredDeparture: withinLimit(optional('preferredDeparture', 'Dates wanted must be text, such as "October 2026" or a departure id.'), 'preferredDeparture')
      .nullable()
      .optional()
      .describe('Optional: a departure `id` from GET /v1/departures, or the dates wanted as text ("October 2026").'),
    message: withinLimit(optional('message', 'The message must be text.', true), 'message')
      .nullable()
      .optional()
      .describe('Optional: their questions, in their words. Line breaks are kept.'),
    [honeypotField]: z
      .union([z.literal(''), z.null()], { error: `The "${honeypotField}" field must be left empty. It is there to catch automated spam.` })
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

/**
 * Checks a submitted enquiry (from JSON, a form or an MCP call). Every field's problem is
 * reported, the first one of each field, in the order the form shows them. Unknown fields are
 * ignored.
 */
export function checkEnquiry(input: Record<string, unknown>, catalogue: Catalogue): EnquiryCheck {
  const slug = typeof input.tripSlug === 'string' ? cleanText(input.tripSlug) : '';
  const trip = catalogue.trips.find((page) => page.trip.slug === slug);
  const parsed = enquiryRequestSchema(catalogue, trip).safeParse(input);
  if (!parsed.success) {
    const errors: FieldError[] = [];
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '') as EnquiryField;
      if (!errors.some((e) => e.field === field)) errors.push({ field, message: issue.message });
    }
    return { ok: false, errors };
  }
  const { tripSlug, name, phone, email, groupSize, preferredDeparture, message } = parsed.data;
  return { ok: true, enquiry: { tripSlug, name, phone, email: email || null, groupSize, preferredDeparture: preferredDeparture || null, message: message || null } };
}
