/**
 * POST /agent/event/notify: security event tokens (RFC 8417) pushed by identity providers
 * (RFC 8935). A revocation event about one of a provider's subjects revokes every
 * registration that provider made for it, so that agent's next exchange is invalid_grant.
 * Success is 202 with no body; errors carry RFC 8935's `err`/`description` and the OAuth
 * `error`/`error_description` names.
 */
import { AssertionRefused, verifySecurityEvent, type SecurityEvent } from './assertions.ts';
import { overLimit, type AgentAuthDeps, type ClientContext } from './deps.ts';
import { guarded } from './guard.ts';
import { resourceAudiences, revocationEvents } from './metadata.ts';
import { oauthJson } from './oauth-response.ts';
import type { RefusalReason } from './oauth-response.ts';
import { BodyError, readSecurityEventToken } from './request-body.ts';

type DeliveryError = 'invalid_request' | 'invalid_issuer' | 'invalid_audience' | 'authentication_failed';

function deliveryError(err: DeliveryError, description: string, status = 400): Response {
  return oauthJson({ err, description, error: err, error_description: description }, status);
}

function deliveryErrorOf(reason: RefusalReason): DeliveryError {
  if (reason === 'issuer_not_enabled') return 'invalid_issuer';
  if (reason === 'audience_mismatch') return 'invalid_audience';
  if (
    reason === 'invalid_signature' ||
    reason === 'unsupported_algorithm' ||
    reason === 'credential_expired' ||
    reason === 'issued_in_future'
  )
    return 'authentication_failed';
  return 'invalid_request';
}

/**
 * The subject an event is about: the event's own `subject` or the top-level `sub_id`
 * (RFC 9493 `iss_sub` or `opaque`), else the top-level `sub`. A provider speaks only for its
 * own subjects.
 */
function subjectOf(event: SecurityEvent, payload: Record<string, unknown>): string | null {
  for (const candidate of [payload.subject, event.subjectId]) {
    if (!candidate || typeof candidate !== 'object') continue;
    const id = candidate as Record<string, unknown>;
    if (id.format === 'iss_sub' && id.iss === event.issuer && typeof id.sub === 'string' && id.sub) return id.sub;
    if (id.format === 'opaque' && typeof id.id === 'string' && id.id) return id.id;
  }
  return event.subject;
}

export function handleSecurityEvent(request: Request, deps: AgentAuthDeps, client: ClientContext): Promise<Response> {
  return guarded('security event', async () => {
    if (request.method !== 'POST') return deliveryError('invalid_request', 'POST a security event token here.', 405);
    const limited = await overLimit(deps.limiters.events, client);
    if (limited) return limited;
    let event: SecurityEvent;
    try {
      const token = await readSecurityEventToken(request);
      event = await verifySecurityEvent(token, {
        issuers: deps.issuers,
        audiences: resourceAudiences(deps.siteUrl),
        nowMs: deps.clock(),
      });
    } catch (error) {
      if (error instanceof BodyError) return deliveryError('invalid_request', error.message, error.status);
      if (error instanceof AssertionRefused) return deliveryError(deliveryErrorOf(error.reason), error.message);
      throw error;
    }
    const revocations = Object.entries(event.events).filter(([type]) =>
      (revocationEvents as readonly string[]).includes(type),
    );
    // Unknown event types are ignored (RFC 8417 §2.2); the delivery itself succeeded.
    if (revocations.length === 0) return new Response(null, { status: 202 });
    const subjects = revocations.map(([, payload]) =>
      subjectOf(event, payload && typeof payload === 'object' ? payload : {}),
    );
    if (subjects.some((s) => s === null))
      return deliveryError(
        'invalid_request',
        'The revocation event names no subject (sub, sub_id or the event subject).',
      );
    // A repeated delivery (same jti) is accepted without acting twice.
    const expires = new Date(event.issuedAt.getTime() + 2 * 24 * 60 * 60 * 1000);
    if (await deps.registry.useAssertionId(event.issuer, `set:${event.jti}`, expires)) {
      const now = new Date(deps.clock());
      for (const subject of new Set(subjects as string[]))
        await deps.registry.revokeSubject(event.issuer, subject, now);
    }
    return new Response(null, { status: 202 });
  });
}
