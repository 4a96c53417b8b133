/**
 * Reads an enquiry's request body: JSON from scripts and the enhanced form, URL-encoded fields
 * from the plain HTML form. The size cap is enforced while reading, so an oversize body is
 * refused after at most `maxBytes` have arrived, never buffered whole.
 */

import { readCappedBytes } from '../http/body.ts';

export const maxBodyBytes = 16 * 1024;

export type BodyFormat = 'json' | 'form';

export type BodyRead =
  | { ok: true; format: BodyFormat; fields: Record<string, unknown> }
  | { ok: false; format: BodyFormat | null; message: string };

/** Which format the Content-Type names, or null for anything else. */
export function bodyFormat(contentType: string | null): BodyFormat | null {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType === 'application/json') return 'json';
  if (mediaType === 'application/x-www-form-urlencoded') return 'form';
  return null;
}

/** A number as a form sends it: digits, perhaps with spaces around (the enquiry OpenAPI document says so too). */
export const formNumberPattern = /^\s*[0-9]{1,4}\s*$/;

/**
 * A form sends every field as text; the group size is a number in JSON. Digits become that
 * number, an empty field is absent, and anything else stays as typed, to be refused by name.
 */
function formNumber(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (formNumberPattern.test(value)) return Number(value);
  return value.trim() === '' ? undefined : value;
}

export async function readEnquiryBody(request: Request, maxBytes = maxBodyBytes): Promise<BodyRead> {
  const format = bodyFormat(request.headers.get('Content-Type'));
  if (!format) {
    return {
      ok: false,
      format,
      message:
        'Send the enquiry as JSON (Content-Type: application/json) or as a web form (application/x-www-form-urlencoded).',
    };
  }
  const tooLarge = `The enquiry is too large: the limit is ${Math.round(maxBytes / 1024)} KB. Shorten the message and send it again.`;
  const declared = Number(request.headers.get('Content-Length'));
  if (Number.isFinite(declared) && declared > maxBytes) return { ok: false, format, message: tooLarge };

  let bytes: Uint8Array | null;
  try {
    bytes = await readCappedBytes(request, maxBytes);
  } catch {
    return {
      ok: false,
      format,
      message: 'The enquiry could not be read: the connection ended before the whole body arrived.',
    };
  }
  if (!bytes) return { ok: false, format, message: tooLarge };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, format, message: 'The enquiry could not be read: the body is not valid UTF-8 text.' };
  }

  if (format === 'form') {
    const fields: Record<string, unknown> = {};
    for (const [name, value] of new URLSearchParams(text)) fields[name] = value;
    fields.groupSize = formNumber(fields.groupSize);
    return { ok: true, format, fields };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {
      ok: false,
      format,
      message:
        'The enquiry is not valid JSON. Send one JSON object such as {"tripSlug": "…", "name": "…", "phone": "…", "groupSize": 2}.',
    };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return {
      ok: false,
      format,
      message: 'The enquiry must be one JSON object with the fields tripSlug, name, phone and groupSize.',
    };
  }
  return { ok: true, format, fields: parsed as Record<string, unknown> };
}
