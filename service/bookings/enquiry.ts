/**
 * What a booking enquiry is and how a submitted one is checked: the fields, their bounds, and a
 * plain-language message per field. Input is normalised here (Unicode NFC, whitespace, control
 * and meaningless invisible characters) so storage and the email only ever see clean text.
 * Characters that change the direction of the text around them are refused instead: removing
 * them would change what the person wrote, and keeping them would show the team something else.
 * Text over a field's limit is refused with a message naming the limit, never cut short. The
 * checks themselves are the Zod schema in enquiry-schema.ts, built from these rules; the form's
 * fields carry the same rules and messages for the browser (form-html.ts), so both refuse alike.
 */
export const enquiryBounds = {
  nameMax: 100,
  phoneMaxChars: 30,
  phoneDigitsMin: 8,
  phoneDigitsMax: 15,
  /** RFC 5321's limit on a whole address. */
  emailMax: 254,
  messageMax: 2000,
  preferredDepartureMax: 100,
  defaultGroupCap: 12,
} as const;

/** The page that confirms an enquiry, by its reference (`?ref=`): where the form ends, with or without JavaScript. */
export const thankYouPath = '/enquiry-sent';

/** The honeypot: hidden from people and assistive technology, so only robots fill it in. */
export const honeypotField = 'website';

/** The form's one-time token (a hidden field), which keys its request so it is taken once (idempotency.ts). */
export const formTokenField = 'formToken';

export const enquiryFields = [
  'tripSlug',
  'name',
  'phone',
  'email',
  'groupSize',
  'preferredDeparture',
  'message',
] as const;
export type EnquiryField = (typeof enquiryFields)[number] | typeof honeypotField;

/** A checked enquiry, ready to store. */
export interface EnquiryInput {
  tripSlug: string;
  name: string;
  phone: string;
  /** Optional: for people who would rather have the details in writing too. */
  email: string | null;
  groupSize: number;
  preferredDeparture: string | null;
  message: string | null;
}

export interface FieldError {
  field: EnquiryField;
  message: string;
}

export type EnquiryCheck = { ok: true; enquiry: EnquiryInput } | { ok: false; errors: FieldError[] };

/** How a refusal names each free-text field to the person who filled it in. */
export const textFieldLabels = {
  tripSlug: 'The trip (tripSlug)',
  name: 'Your name',
  phone: 'The phone number',
  email: 'The email address',
  preferredDeparture: 'Dates wanted',
  message: 'Your message',
} as const satisfies Partial<Record<EnquiryField, string>>;

/** The most characters (after trimming) each free-text field takes. */
export const textLimits = {
  name: enquiryBounds.nameMax,
  phone: enquiryBounds.phoneMaxChars,
  email: enquiryBounds.emailMax,
  preferredDeparture: enquiryBounds.preferredDepartureMax,
  message: enquiryBounds.messageMax,
} as const;
export type LimitedField = keyof typeof textLimits;

/**
 * The refusal of an over-long field. `count` is a number, or a placeholder the form's script
 * fills in, so the browser says exactly what the server would.
 */
export function tooLongMessage(field: LimitedField, count: number | string): string {
  return `${textFieldLabels[field]} can be at most ${textLimits[field]} characters; it has ${count}. Please shorten it.`;
}

/** The rule of an over-long field as one sentence: what the form's field says when no script runs. */
export function limitSentence(field: LimitedField): string {
  return `${textFieldLabels[field]} can be at most ${textLimits[field]} characters.`;
}

/**
 * What each refusal of a field says, in one place: the schema (enquiry-schema.ts) refuses with
 * these, and the form (form-html.ts) carries them for the browser, so a slip is named in the
 * same words before and after sending.
 */
export const fieldMessages = {
  tripSlug: { missing: 'Choose the trip you are asking about (tripSlug is missing).' },
  name: { missing: 'Tell us your name so the guide knows whom to ask for.', notText: 'Your name must be text.' },
  phone: {
    missing: 'Give a phone number so a guide can call you back.',
    notText: 'Give the phone number as text, for example "+91 98765 43210".',
    invalid: `Give a phone number of ${enquiryBounds.phoneDigitsMin} to ${enquiryBounds.phoneDigitsMax} digits, for example +91 98765 43210 or (+91) 98765 43210; only digits, spaces, dashes, dots, brackets and a + before the first digit are allowed.`,
  },
  email: {
    notText: 'The email address must be text, such as asha@example.com.',
    invalid: 'Give an email address such as asha@example.com, or leave the field empty: a guide calls you either way.',
  },
  groupSize: { missing: 'Say how many people are coming.' },
  preferredDeparture: { notText: 'Dates wanted must be text, such as "October 2027" or a departure id.' },
  message: { notText: 'The message must be text.' },
} as const;

/** The refusal of a group size that is not a whole number from 1 to the trip's cap. */
export function groupSizeMessage(cap: number, tripName?: string): string {
  return `Group size must be a whole number from 1 to ${cap}${tripName ? ` for ${tripName}` : ''}. For a larger group, enter ${cap} and say how many you are in your message.`;
}

/** How many characters a text counts as against its limit. */
export function charCount(text: string): number {
  return [...text].length;
}

/** The group-size cap in a trip's published text ("Up to 12 trekkers" → 12), else 12. */
export function groupSizeCap(groupSizeText: string | undefined): number {
  if (!groupSizeText) return enquiryBounds.defaultGroupCap;
  const stated =
    /\b(?:up\s+to|max(?:imum)?|at\s+most)\s*(\d{1,3})\b/i.exec(groupSizeText) ?? /\b(\d{1,3})\b/.exec(groupSizeText);
  const cap = stated ? Number(stated[1]) : Number.NaN;
  return Number.isInteger(cap) && cap >= 1 ? cap : enquiryBounds.defaultGroupCap;
}

/**
 * Bidirectional embeddings, overrides, isolates and marks: each makes the text around it display
 * in another order than it is stored (U+202E turns "Rao" into "oaR").
 */
const directionControl = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/**
 * Invisible characters that mean nothing in a name, phone number or message, but can make two
 * texts look the same or hide text: zero-width space, word joiner and invisible operators, the
 * byte order mark, soft hyphen, deprecated format characters, interlinear annotation and tag
 * characters. The zero-width joiner and non-joiner are not among them: Indic scripts and emoji
 * need them.
 */
const meaninglessInvisible = /[\u00AD\u180E\u200B\u2060-\u2064\u206A-\u206F\uFEFF\uFFF9-\uFFFB\u{E0000}-\u{E007F}]/gu;

/** The first direction control in `value`, as "U+202E", or null. */
export function directionControlIn(value: string): string | null {
  const found = directionControl.exec(value);
  return found ? `U+${found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}` : null;
}

/** Trims, applies NFC, drops control and meaningless invisible characters; `multiline` keeps line breaks (as \n) and tabs. */
export function cleanText(value: string, multiline = false): string {
  const normalised = value.replace(meaninglessInvisible, '').normalize('NFC').replace(/\r\n?/g, '\n');
  const withoutControls = multiline
    ? normalised.replace(/[[\p{Cc}\u2028\u2029]--[\t\n]]/gv, '')
    : normalised.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').replace(/\s+/g, ' ');
  return withoutControls.trim();
}

/**
 * A phone number: digits, spaces, dashes, dots and brackets, with one + before the first digit
 * ("+91 98765 43210", "(+91) 98765 43210"), 8 to 15 digits in all. Written as one expression so
 * JSON Schema (the OpenAPI document) and the form's `pattern` carry it too; the characters that
 * a browser's `pattern` (read with the `v` flag) wants escaped in a class are escaped.
 */
export const phonePattern = new RegExp(
  `^(?=(?:[^0-9]*[0-9]){${enquiryBounds.phoneDigitsMin},${enquiryBounds.phoneDigitsMax}}[^0-9]*$)[\\s\\(]*\\+?[0-9\\s\\(\\)\\.\\-]+$`,
);

/**
 * An email address as Zod's `z.email()` accepts it (the same expression, with `-` escaped in
 * its classes so a browser's `pattern` reads it too): the server checks it and the form's field
 * carries it, so both refuse the same addresses.
 */
const emailAddress = String.raw`(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+\-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}`;
export const emailPattern = new RegExp(`^${emailAddress}$`);

/** The phone number as kept (cleaned), or null when it is not one. */
export function checkPhone(raw: string): string | null {
  const phone = cleanText(raw);
  return charCount(phone) <= enquiryBounds.phoneMaxChars && phonePattern.test(phone) ? phone : null;
}

/**
 * A text of `min` to `max` characters as the server counts them (trimmed, each run of spaces one
 * character), for a form field's `pattern`, which a browser matches against the whole value as
 * typed.
 */
function lengthPattern(min: number, max: number): string {
  return `\\s*(?:\\S|\\s+(?=\\S)){${min},${max}}\\s*`;
}

/**
 * The `pattern` of each text field of the form: the server's rules for it (length, and the phone
 * and email expressions above), so the browser refuses what the server would, before anything
 * is sent. The message has no `pattern` (a textarea takes none); it carries `maxlength`.
 */
export const fieldPatterns = {
  name: lengthPattern(1, textLimits.name),
  phone: `(?=${lengthPattern(1, textLimits.phone)}$)${phonePattern.source}`,
  // Blank, or an address with spaces around it: the server trims it, and takes blank as not given.
  email: `\\s*|(?=${lengthPattern(1, textLimits.email)}$)\\s*${emailAddress}\\s*`,
  preferredDeparture: lengthPattern(0, textLimits.preferredDeparture),
} as const;
