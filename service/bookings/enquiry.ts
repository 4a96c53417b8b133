/**
 * What a booking enquiry is and how a submitted one is checked: the fields, their bounds, and a
 * plain-language message per field. Input is normalised here (Unicode NFC, whitespace, control
 * and meaningless invisible characters) so storage and the email only ever see clean text.
 * Characters that change the direction of the text around them are refused instead: removing
 * them would change what the person wrote, and keeping them would show the team something else.
 * Text over a field's limit is refused with a message naming the limit, never cut short.
 */
import { z } from 'astro/zod';
import type { Catalogue, TripPage } from '../../domain/catalogue/index.ts';

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

/** The honeypot: hidden from people and assistive technology, so only robots fill it in. */
export const honeypotField = 'website';

export const enquiryFields = ['tripSlug', 'name', 'phone', 'email', 'groupSize', 'preferredDeparture', 'message'] as const;
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
const textFieldLabels = {
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

/** How many characters a text counts as against its limit. */
export function charCount(text: string): number {
  return [...text].length;
}

/** The group-size cap in a trip's published text ("Up to 12 trekkers" → 12), else 12. */
export function groupSizeCap(groupSizeText: string | undefined): number {
  if (!groupSizeText) return enquiryBounds.defaultGroupCap;
  const stated = /\b(?:up\s+to|max(?:imum)?|at\s+most)\s*(\d{1,3})\b/i.exec(groupSizeText) ?? /\b(\d{1,3})\b/.exec(groupSizeText);
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
    ? normalised.replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029]/g, '')
    : normalised.replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g, ' ').replace(/\s+/g, ' ');
  return withoutControls.trim();
}

/** Digits, spaces, dashes, dots, parentheses and one leading +; 8 to 15 digits in all. */
export function checkPhone(raw: string): string | null {
  const phone = cleanText(raw);
  if (phone.length > enquiryBounds.phoneMaxChars) return null;
  if (!/^\+?[\d\s().-]+$/.test(phone)) return null;
  const digits = phone.replace(/\D/g, '').length;
  if (digits < enquiryBounds.phoneDigitsMin || digits > enquiryBounds.phoneDigitsMax) return null;
  return phone;
}

function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function findTrip(catalogue: Catalogue, slug: string): TripPage | undefined {
  return catalogue.trips.find((page) => page.trip.slug === slug);
}

const emailAddress = z.email();

/**
 * An optional free-text field: null when absent or blank, refused when not text or over its
 * limit. The message keeps its line breaks.
 */
function optionalText(input: Record<string, unknown>, field: 'email' | 'preferredDeparture' | 'message', notText: string, fail: (field: EnquiryField, message: string) => void): string | null {
  const value = input[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') {
    fail(field, notText);
    return null;
  }
  const text = cleanText(value, field === 'message') || null;
  if (text && charCount(text) > textLimits[field]) fail(field, tooLongMessage(field, charCount(text)));
  return text;
}

/**
 * Checks a submitted enquiry (from JSON or a form). Every field's problem is reported, each in
 * a sentence a visitor can act on. Unknown fields are ignored.
 */
export function checkEnquiry(input: Record<string, unknown>, catalogue: Catalogue): EnquiryCheck {
  const errors: FieldError[] = [];
  // A field refused for a direction control gets no other message, which could repeat the reordered text.
  const refused = new Set<EnquiryField>();
  const fail = (field: EnquiryField, message: string) => {
    if (!refused.has(field)) errors.push({ field, message });
  };

  for (const [field, label] of Object.entries(textFieldLabels) as [EnquiryField, string][]) {
    const value = input[field];
    const control = typeof value === 'string' ? directionControlIn(value) : null;
    if (!control) continue;
    fail(field, `${label} contains an invisible character (${control}) that changes the direction of the text around it, so it would not read as typed. Please type it again without that character.`);
    refused.add(field);
  }

  const honeypot = input[honeypotField];
  if (honeypot !== undefined && honeypot !== null && honeypot !== '') {
    fail(honeypotField, `The "${honeypotField}" field must be left empty. It is there to catch automated spam.`);
  }

  const slugText = asText(input.tripSlug);
  const slug = slugText === undefined ? '' : cleanText(slugText);
  const trip = slug ? findTrip(catalogue, slug) : undefined;
  if (!slug) fail('tripSlug', 'Choose the trip you are asking about (tripSlug is missing).');
  else if (!trip) fail('tripSlug', `We have no published trip called "${slug.slice(0, 60)}". Pick a trip from the catalogue.`);

  const nameText = asText(input.name);
  const name = nameText === undefined ? '' : cleanText(nameText);
  if (!name) fail('name', 'Tell us your name so the guide knows whom to ask for.');
  else if (charCount(name) > textLimits.name) fail('name', tooLongMessage('name', charCount(name)));

  const phoneText = asText(input.phone);
  const phoneClean = phoneText === undefined ? '' : cleanText(phoneText);
  const phone = phoneClean ? checkPhone(phoneClean) : null;
  if (!phoneClean) fail('phone', 'Give a phone number so a guide can call you back.');
  else if (charCount(phoneClean) > textLimits.phone) fail('phone', tooLongMessage('phone', charCount(phoneClean)));
  else if (!phone) {
    fail('phone', `Give a phone number of ${enquiryBounds.phoneDigitsMin} to ${enquiryBounds.phoneDigitsMax} digits, for example +91 98765 43210; only digits, spaces, dashes, brackets and a leading + are allowed.`);
  }

  const email = optionalText(input, 'email', 'The email address must be text, such as asha@example.com.', fail);
  if (email && charCount(email) <= textLimits.email && !emailAddress.safeParse(email).success) {
    fail('email', 'Give an email address such as asha@example.com, or leave the field empty: a guide calls you either way.');
  }

  const cap = groupSizeCap(trip?.trip.groupSize);
  const sizeText = asText(input.groupSize);
  const size = sizeText !== undefined && /^\s*\d{1,4}\s*$/.test(sizeText) ? Number(sizeText) : Number.NaN;
  if (sizeText === undefined || sizeText.trim() === '') fail('groupSize', 'Say how many people are coming.');
  else if (!Number.isInteger(size) || size < 1 || size > cap) {
    fail('groupSize', `Group size must be a whole number from 1 to ${cap}${trip ? ` for ${trip.trip.name}` : ''}. For a larger group, enter ${cap} and say how many you are in your message.`);
  }

  const preferredDeparture = optionalText(input, 'preferredDeparture', 'Dates wanted must be text, such as "October 2026" or a departure id.', fail);
  const message = optionalText(input, 'message', 'The message must be text.', fail);

  if (errors.length > 0 || !trip || !phone) return { ok: false, errors };
  return { ok: true, enquiry: { tripSlug: trip.trip.slug, name, phone, email, groupSize: size, preferredDeparture, message } };
}
