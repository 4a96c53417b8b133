/**
 * The enquiry form's HTML, in one place: the trip page renders it empty (EnquiryForm.astro) and
 * the answer to a plain form post renders it again with what the person typed and each error
 * next to its field, so nothing typed is lost. The ids and names are what /enquiry.js and the
 * tests rely on: `enquiry-<field>`, `enquiry-<field>-error`, `enquiry-<field>-hint`.
 *
 * Every field carries the server's rules as the browser's own constraints (`required`,
 * `pattern`, `type`, `min`/`max`, `maxlength` on the message), made from the same bounds and
 * expressions as the schema (enquiry.ts), and the server's refusals beside them (`title`,
 * `data-missing`, `data-invalid`, `data-too-long`, `data-too-many`, and on the dates the
 * expression and sentence of past-dates.ts, `data-date-pattern` and `data-past`). /enquiry.js
 * checks every field with them before anything is sent and says each refusal next to its field.
 * The form is `novalidate`: without JavaScript the browser's bubble would name one field at a
 * time in its own words ("Please match the requested format."), so the server checks it and
 * answers with this form again, every refusal in its own sentence next to its field. No `maxlength` on the
 * one-line fields, since a browser cuts pasted text at it without a word: their `pattern` counts
 * instead. A textarea takes no `pattern`, so the message has `maxlength` (the script lifts it and
 * says the limit instead).
 */
import { randomBytes } from 'node:crypto';
import type { Trip } from '../../domain/schemas/trip.ts';
import { html, type SafeHtml } from '../../domain/html.ts';
import {
  enquiryBounds,
  fieldMessages,
  formTokenField,
  fieldPatterns,
  groupSizeCap,
  groupSizeMessage,
  honeypotField,
  limitSentence,
  textLimits,
  thankYouPath,
  tooLongMessage,
  type EnquiryField,
  type FieldError,
  type LimitedField,
} from './enquiry.ts';
import { namedDatePattern, pastDatesMessage } from './past-dates.ts';
import { seatsLeftSentence, tooFewSeatsMessage } from './seats.ts';

export interface EnquiryFormOptions {
  trip: Pick<Trip, 'slug' | 'name' | 'groupSize'>;
  heading?: string | undefined;
  /** The form's heading level: 3 under a trip page's section, 2 on a page of its own. */
  headingLevel?: 2 | 3 | undefined;
  /** What was submitted, shown again (strings as a form sends them). */
  values?: Record<string, unknown> | undefined;
  errors?: readonly FieldError[] | undefined;
  /** The seats left on the date already in the form (the enquiry page of one departure): the group's bound. */
  seats?: { dates: string; left: number } | undefined;
  /** The form's one-time token, for a form written for one person (idempotency.ts); a shared page has none. */
  token?: string | undefined;
}

/** The visible fields, in the order the form shows them (and the server reports them). */
export const formFieldLabels = {
  name: 'Your name',
  phone: 'Phone number',
  email: 'Email',
  groupSize: 'People in your group',
  preferredDeparture: 'Dates you want',
  message: 'Message',
} as const satisfies Partial<Record<EnquiryField, string>>;
export type FormField = keyof typeof formFieldLabels;

export const isFormField = (field: string): field is FormField => Object.hasOwn(formFieldLabels, field);

/** What a field's hint says under it, wherever the form is shown (the trip page, the MCP App's view). */
export const fieldHints = {
  phone: 'Indian or international, for example +91 98765 43210 or (+91) 98765 43210.',
  email: 'So our team can write to you as well. A guide calls you either way.',
  groupSize: (cap: number) => `1 to ${cap} for this trip.`,
  message: `Up to ${enquiryBounds.messageMax} characters.`,
} as const;

const fieldId = (field: string) => `enquiry-${field}`;

interface FieldState {
  value: string;
  error: string | undefined;
}

function stateOf(options: EnquiryFormOptions, field: FormField): FieldState {
  const raw = options.values?.[field];
  const value = typeof raw === 'string' || typeof raw === 'number' ? String(raw) : '';
  return { value, error: options.errors?.find((e) => e.field === field)?.message };
}

/** The attributes every control shares: id, name, its hint and error, invalid when refused. */
function common(field: FormField, state: FieldState, hint: boolean): SafeHtml {
  const described = [hint ? `${fieldId(field)}-hint` : '', `${fieldId(field)}-error`].filter(Boolean).join(' ');
  return html`id="${fieldId(field)}" name="${field}" aria-describedby="${described}"${state.error ? html` aria-invalid="true"` : ''}`;
}

function limit(field: LimitedField): SafeHtml {
  return html`data-max-chars="${textLimits[field]}" data-too-long="${tooLongMessage(field, '{n}')}"`;
}

/** A one-line field's rules for the browser: its pattern and, as its title, the server's refusal of a value that breaks it. */
function rules(field: keyof typeof fieldPatterns, title: string): SafeHtml {
  return html`pattern="${fieldPatterns[field]}" title="${title}" ${limit(field)}`;
}

/** The group's bounds: the trip's cap, or fewer when the date in the form has fewer seats left. */
function groupRules(cap: number, tripName: string, seats: EnquiryFormOptions['seats']): SafeHtml {
  const max = seats ? Math.min(cap, seats.left) : cap;
  return html`min="1" max="${max}" step="1" data-cap="${cap}" data-missing="${fieldMessages.groupSize.missing}" data-invalid="${groupSizeMessage(cap, tripName)}" data-too-many="${tooFewSeatsMessage('{dates}', '{seats}')}" data-seats-hint="${seatsLeftSentence('{dates}', '{seats}')}"${seats ? html` data-seats-left="${seats.left}" data-seats-dates="${seats.dates}"` : ''}`;
}

function label(field: FormField, required: boolean): SafeHtml {
  return html`<label for="${fieldId(field)}">${formFieldLabels[field]} ${required ? html`<span aria-hidden="true">*</span>` : '(optional)'}</label>`;
}

function field(
  name: FormField,
  state: FieldState,
  parts: { required: boolean; control: SafeHtml; hint?: string | SafeHtml | undefined; attributes?: SafeHtml },
): SafeHtml {
  return html`<div class="field"${parts.attributes ?? ''}>
${label(name, parts.required)}
${parts.control}
${parts.hint ? html`<p class="hint" id="${`${fieldId(name)}-hint`}">${parts.hint}</p>` : ''}
<p class="field-error" id="${`${fieldId(name)}-error`}">${state.error ?? ''}</p>
</div>`;
}

/** A new one-time token, for a form written for one person (the page that shows the form again). */
export function newFormToken(): string {
  return randomBytes(18).toString('base64url');
}

export function enquiryFormHtml(options: EnquiryFormOptions): SafeHtml {
  const { trip } = options;
  const level = options.headingLevel ?? 3;
  const heading = options.heading ?? 'Ask a guide to call you';
  const cap = groupSizeCap(trip.groupSize);
  const s = (f: FormField) => stateOf(options, f);
  // The one-time token: as sent (a form shown again after a refusal keeps it: nothing was taken
  // under it), else `options.token`; empty in the built pages, where /enquiry.js puts one in.
  const sent = options.values?.[formTokenField];
  const token = typeof sent === 'string' && sent !== '' ? sent : (options.token ?? '');
  const [name, phone, email, groupSize, dates, message] = (
    ['name', 'phone', 'email', 'groupSize', 'preferredDeparture', 'message'] as const
  ).map(s) as [FieldState, FieldState, FieldState, FieldState, FieldState, FieldState];

  return html`<form id="enquiry-form" class="enquiry" method="post" action="/api/bookings" aria-labelledby="enquiry-title" novalidate data-enquiry data-sent="${`${thankYouPath}?ref=`}">
${level === 2 ? html`<h2 id="enquiry-title">${heading}</h2>` : html`<h3 id="enquiry-title">${heading}</h3>`}
<p class="muted" id="enquiry-about">About ${trip.name}. A guide calls you back to confirm seats and dates; nothing is booked until then. Fields marked <span aria-hidden="true">*</span><span class="visually-hidden">with a star</span> are required.</p>
<input type="hidden" name="tripSlug" value="${trip.slug}">
<input type="hidden" name="${formTokenField}" value="${token}">
${field('name', name, {
  required: true,
  control: html`<input ${common('name', name, false)} type="text" required autocomplete="name" data-missing="${fieldMessages.name.missing}" ${rules('name', `${fieldMessages.name.missing} ${limitSentence('name')}`)} value="${name.value}">`,
})}
${field('phone', phone, {
  required: true,
  control: html`<input ${common('phone', phone, true)} type="tel" required autocomplete="tel" inputmode="tel" data-missing="${fieldMessages.phone.missing}" ${rules('phone', fieldMessages.phone.invalid)} value="${phone.value}">`,
  hint: fieldHints.phone,
})}
${field('email', email, {
  required: false,
  control: html`<input ${common('email', email, true)} type="email" autocomplete="email" ${rules('email', fieldMessages.email.invalid)} value="${email.value}">`,
  hint: fieldHints.email,
})}
${field('groupSize', groupSize, {
  required: true,
  control: html`<input ${common('groupSize', groupSize, true)} type="number" required ${groupRules(cap, trip.name, options.seats)} inputmode="numeric" value="${groupSize.value}">`,
  // The seats left on the chosen date, when it has fewer than the trip's cap (written here, or by /enquiry.js).
  hint: html`${fieldHints.groupSize(cap)}<span class="seats-hint">${options.seats ? ` ${seatsLeftSentence(options.seats.dates, options.seats.left)}` : ''}</span>`,
})}
<!-- With JavaScript: the trip's live departures, put between these two choices by /enquiry.js. -->
<div class="field" data-departure-choice hidden>
<label for="enquiry-departure">${formFieldLabels.preferredDeparture} (optional)</label>
<select id="enquiry-departure" aria-describedby="enquiry-departure-hint"><option value="">Choose a departure</option><option value="other">Other dates or flexible</option></select>
<p class="hint" id="enquiry-departure-hint" data-gone="${'The departure you followed is no longer open for enquiries; choose another, or other dates.'}">The departures on sale now, or other dates.</p>
</div>
${field('preferredDeparture', dates, {
  required: false,
  control: html`<input ${common('preferredDeparture', dates, true)} type="text" ${rules('preferredDeparture', limitSentence('preferredDeparture'))} data-date-pattern="${namedDatePattern}" data-past="${pastDatesMessage}" value="${dates.value}">`,
  hint: `A departure's dates, or the month and year you have in mind (up to ${enquiryBounds.preferredDepartureMax} characters).`,
  attributes: html` data-dates-text data-other-label="${'Other dates you have in mind (optional)'}"`,
})}
${field('message', message, {
  required: false,
  // The parser drops one line break right after <textarea>: this one, never the person's own.
  control: html`<textarea ${common('message', message, true)} rows="4" maxlength="${textLimits.message}" ${limit('message')}>
${message.value}</textarea>`,
  hint: fieldHints.message,
})}
<div class="trap" aria-hidden="true">
<label for="${fieldId(honeypotField)}">Leave this empty</label>
<input id="${fieldId(honeypotField)}" name="${honeypotField}" type="text" tabindex="-1" autocomplete="off">
</div>
<button type="submit">Send enquiry</button>
<p class="status" role="status" id="enquiry-status"></p>
</form>`;
}
