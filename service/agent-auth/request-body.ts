/**
 * Bounded request bodies for the agent endpoints: a body is read only up to a cap, then
 * parsed as the one media type the endpoint takes. Every failure is a BodyError with the
 * status and sentence to answer with, never an exception that reaches the host.
 */

import { readCappedBytes } from '../http/body.ts';

/** Assertions are a few kilobytes; anything far larger is not a registration. */
const maxBodyBytes = 16 * 1024;

export class BodyError extends Error {
  override name = 'BodyError';
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

function mediaType(request: Request): string {
  return (request.headers.get('Content-Type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

async function readBodyText(request: Request, limit = maxBodyBytes): Promise<string> {
  const declared = Number(request.headers.get('Content-Length') ?? '0');
  if (declared > limit) throw new BodyError(413, `The body is larger than ${limit} bytes.`);
  let bytes: Uint8Array | null;
  try {
    bytes = await readCappedBytes(request, limit);
  } catch {
    throw new BodyError(400, 'The body could not be read.');
  }
  if (!bytes) throw new BodyError(413, `The body is larger than ${limit} bytes.`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new BodyError(400, 'The body is not valid UTF-8.');
  }
}

/** A JSON object body (Content-Type application/json). */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const type = mediaType(request);
  if (type !== 'application/json' && !type.endsWith('+json'))
    throw new BodyError(415, 'Send the body as application/json.');
  const text = await readBodyText(request);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BodyError(400, 'The body is not valid JSON.');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new BodyError(400, 'The body must be a JSON object.');
  return value as Record<string, unknown>;
}

/**
 * A form body (application/x-www-form-urlencoded) as single values: OAuth forbids repeating
 * a parameter (RFC 6749 §3.2), so a repeated one is refused rather than guessed.
 */
export async function readForm(request: Request, limit = maxBodyBytes): Promise<Map<string, string>> {
  if (mediaType(request) !== 'application/x-www-form-urlencoded')
    throw new BodyError(415, 'Send the body as application/x-www-form-urlencoded.');
  const params = new URLSearchParams(await readBodyText(request, limit));
  const form = new Map<string, string>();
  for (const [name, value] of params) {
    if (form.has(name)) throw new BodyError(400, `The parameter "${name}" is repeated.`);
    form.set(name, value);
  }
  return form;
}

/** A security event token body (application/secevent+jwt, RFC 8935 §2). */
export async function readSecurityEventToken(request: Request): Promise<string> {
  if (mediaType(request) !== 'application/secevent+jwt')
    throw new BodyError(415, 'Send the security event token as application/secevent+jwt.');
  return (await readBodyText(request)).trim();
}
