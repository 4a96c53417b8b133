/**
 * Responses of the registration and token endpoints. Errors follow OAuth 2.0
 * (`{error, error_description}`, RFC 6749 §5.2) and are never cached; a 401 points at the
 * protected resource metadata (RFC 9728 §5.1).
 */
import { agentAuthPaths } from './metadata.ts';
import { cachePolicy } from '../http/cache-policy.ts';

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_grant'
  | 'invalid_token'
  | 'invalid_scope'
  | 'invalid_target'
  | 'unsupported_grant_type'
  | 'authorization_pending'
  | 'slow_down'
  | 'expired_token'
  | 'anonymous_not_enabled'
  | 'rate_limited'
  | 'temporarily_unavailable';

/** Why an assertion was refused, for agents and logs; `error` stays the OAuth code. */
export type RefusalReason =
  | 'unsupported_algorithm'
  | 'invalid_type'
  | 'issuer_not_enabled'
  | 'invalid_signature'
  | 'audience_mismatch'
  | 'credential_expired'
  | 'issued_in_future'
  | 'lifetime_too_long'
  | 'missing_claim'
  | 'replay_detected'
  | 'registration_revoked'
  | 'registration_expired'
  | 'malformed_token';

export interface OAuthErrorInit {
  status?: number;
  reason?: RefusalReason;
  headers?: Record<string, string>;
  /** Extra members, e.g. `interval` on slow_down. */
  extra?: Record<string, unknown>;
}

/** OAuth answers carry tokens or refusals: never kept (RFC 6749 §5.1). */
export const noStoreHeaders = { 'Cache-Control': cachePolicy.never, Pragma: 'no-cache' } as const;

export function oauthJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...noStoreHeaders, ...headers },
  });
}

export function oauthError(error: OAuthErrorCode, description: string, init: OAuthErrorInit = {}): Response {
  const body = {
    error,
    error_description: description,
    ...(init.reason ? { reason: init.reason } : {}),
    ...init.extra,
  };
  return oauthJson(body, init.status ?? 400, init.headers);
}

function resourceMetadataUrl(siteUrl: string): string {
  return `${siteUrl}${agentAuthPaths.protectedResource}`;
}

/** 401 for a missing or refused bearer token (RFC 6750 §3, RFC 9728 §5.1). */
export function unauthorized(siteUrl: string, description: string, tokenPresent: boolean): Response {
  const params = [`resource_metadata="${resourceMetadataUrl(siteUrl)}"`];
  if (tokenPresent) params.push('error="invalid_token"', `error_description="${description.replace(/["\\]/g, '')}"`);
  return oauthError('invalid_token', description, {
    status: 401,
    headers: { 'WWW-Authenticate': `Bearer ${params.join(', ')}` },
  });
}

export function methodNotAllowed(allowed: string): Response {
  return oauthError('invalid_request', `Use ${allowed} on this endpoint.`, {
    status: 405,
    headers: { Allow: allowed },
  });
}

export function rateLimited(retryAfterSeconds: number): Response {
  return oauthError(
    'rate_limited',
    `Too many requests from this address; wait ${retryAfterSeconds} seconds and retry.`,
    {
      status: 429,
      headers: { 'Retry-After': String(retryAfterSeconds) },
    },
  );
}

export function unavailable(
  description = 'Agent registration is unavailable right now; the public API works without it.',
): Response {
  return oauthError('temporarily_unavailable', description, { status: 503, headers: { 'Retry-After': '30' } });
}
