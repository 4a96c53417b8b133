/**
 * Reads an enquiry's request body: JSON from scripts and the enhanced form, URL-encoded fields
 * from the plain HTML form. The size cap is enforced while reading, so an oversize body is
 * refused after at most `maxBytes` have arrived, never buffered whole.
 */

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

class TooLarge extends Error {}

async function readCapped(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new TooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

export async function readEnquiryBody(request: Request, maxBytes = maxBodyBytes): Promise<BodyRead> {
  const format = bodyFormat(request.headers.get('Content-Type'));
  if (!format) {
    return { ok: false, format, message: 'Send the enquiry as JSON (Content-Type: application/json) or as a web form (application/x-www-form-urlencoded).' };
  }
  const tooLarge = `The enquiry is too large: the limit is ${Math.round(maxBytes / 1024)} KB. Shorten the message and send it again.`;
  const declared = Number(request.headers.get('Content-Length'));
  if (Number.isFinite(declared) && declared > maxBytes) return { ok: false, format, message: tooLarge };

  let bytes: Uint8Array;
  try {
    bytes = await readCapped(request, maxBytes);
  } catch (error) {
    if (error instanceof TooLarge) return { ok: false, format, message: tooLarge };
    return { ok: false, format, message: 'The enquiry could not be read: the connection ended before the whole body arrived.' };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, format, message: 'The enquiry could not be read: the body is not valid UTF-8 text.' };
  }

  if (format === 'form') {
    const fields: Record<string, unknown> = {};
    for (const [name, value] of new URLSearchParams(text)) fields[name] = value;
    return { ok: true, format, fields };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, format, message: 'The enquiry is not valid JSON. Send one JSON object such as {"tripSlug": "…", "name": "…", "phone": "…", "groupSize": 2}.' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, format, message: 'The enquiry must be one JSON object with the fields tripSlug, name, phone and groupSize.' };
  }
  return { ok: true, format, fields: parsed as Record<string, unknown> };
}
