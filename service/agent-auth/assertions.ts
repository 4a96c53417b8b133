/**
 * Verification of what identity providers send: ID-JAGs
 * (draft-ietf-oauth-identity-assertion-authz-grant) at registration and security event tokens
 * (RFC 8417) at the events endpoint. Only issuers on AGENT_TRUSTED_ISSUERS are heard, with
 * their keys fetched from their JWK Set, asymmetric algorithms only, explicit `typ`, our
 * resource as audience, and a small clock skew.
 */
import {
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { lifetimes, tokenTypes } from './metadata.ts';
import type { RefusalReason } from './oauth-response.ts';
import type { TrustedIssuer } from '../config.ts';

/** Algorithms accepted from identity providers: never `none`, never a shared-secret HMAC. */
const assertionAlgorithms = ['RS256', 'PS256', 'ES256', 'ES384', 'EdDSA'];

const maxAssertionLength = 8 * 1024;
const compactJws = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export class AssertionRefused extends Error {
  override name = 'AssertionRefused';
  readonly reason: RefusalReason;
  constructor(reason: RefusalReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** The provider's key set could not be fetched: not the agent's fault, so not a refusal. */
export class IssuerUnreachable extends Error {
  override name = 'IssuerUnreachable';
}

/** The key resolvers of the trusted issuers; jose caches each key set (10 minutes) per process. */
export class TrustedIssuers {
  readonly #keys = new Map<string, JWTVerifyGetKey>();

  constructor(issuers: TrustedIssuer[]) {
    for (const { issuer, jwksUri } of issuers) {
      this.#keys.set(issuer, createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: 3000, cooldownDuration: 30_000 }));
    }
  }

  get issuers(): string[] {
    return [...this.#keys.keys()];
  }

  keysOf(issuer: string): JWTVerifyGetKey | undefined {
    return this.#keys.get(issuer);
  }
}

export interface VerifyContext {
  issuers: TrustedIssuers;
  /** Accepted `aud` values: the resource, with or without a trailing slash. */
  audiences: string[];
  nowMs: number;
}

function normalizeTyp(typ: unknown): string | null {
  if (typeof typ !== 'string') return null;
  const lower = typ.toLowerCase();
  return lower.startsWith('application/') ? lower.slice('application/'.length) : lower;
}

/** Checks that do not need a key, so forged tokens are refused before any fetch. */
function precheck(
  token: unknown,
  typ: string,
): { issuer: string; issuerKeys: (issuers: TrustedIssuers) => JWTVerifyGetKey } {
  if (typeof token !== 'string' || token.length > maxAssertionLength)
    throw new AssertionRefused('malformed_token', 'The assertion must be a compact JWT of at most 8 KiB.');
  let header: ReturnType<typeof decodeProtectedHeader>;
  let payload: JWTPayload;
  try {
    header = decodeProtectedHeader(token);
    payload = decodeJwt(token);
  } catch {
    throw new AssertionRefused('malformed_token', 'The assertion is not a readable JWT.');
  }
  if (typeof header.alg !== 'string' || !assertionAlgorithms.includes(header.alg)) {
    throw new AssertionRefused(
      'unsupported_algorithm',
      `Algorithm ${String(header.alg)} is not accepted; use one of ${assertionAlgorithms.join(', ')}.`,
    );
  }
  if (normalizeTyp(header.typ) !== typ)
    throw new AssertionRefused('invalid_type', `The JWT header "typ" must be ${typ}.`);
  if (!compactJws.test(token))
    throw new AssertionRefused('malformed_token', 'The assertion is not a signed compact JWT.');
  const issuer = payload.iss;
  if (typeof issuer !== 'string' || !issuer) throw new AssertionRefused('missing_claim', 'The assertion has no "iss".');
  return {
    issuer,
    issuerKeys: (issuers) => {
      const keys = issuers.keysOf(issuer);
      if (!keys)
        throw new AssertionRefused(
          'issuer_not_enabled',
          `The issuer ${issuer} is not trusted by this site; see trusted_issuers in the authorization server metadata.`,
        );
      return keys;
    },
  };
}

/** Translates jose's verdicts into refusal reasons; a key set fetch failure is IssuerUnreachable. */
export function refusalOf(error: unknown): Error {
  if (error instanceof AssertionRefused) return error;
  if (error instanceof errors.JWTExpired)
    return new AssertionRefused('credential_expired', 'The assertion has expired or was issued too long ago.');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.reason === 'missing')
      return new AssertionRefused('missing_claim', `The assertion has no "${error.claim}".`);
    if (error.claim === 'aud')
      return new AssertionRefused(
        'audience_mismatch',
        'The assertion "aud" must be this site\'s resource (see /.well-known/oauth-protected-resource).',
      );
    if (error.claim === 'iat' || error.claim === 'nbf')
      return new AssertionRefused('issued_in_future', 'The assertion is dated in the future.');
    if (error.claim === 'typ')
      return new AssertionRefused('invalid_type', 'The JWT header "typ" is not the expected one.');
    if (error.claim === 'iss')
      return new AssertionRefused('issuer_not_enabled', 'The assertion issuer is not trusted.');
    return new AssertionRefused('malformed_token', `The assertion claim "${error.claim}" is invalid.`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported)
    return new AssertionRefused('unsupported_algorithm', 'The assertion algorithm is not accepted.');
  if (
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys
  ) {
    return new AssertionRefused(
      'invalid_signature',
      "The assertion signature does not verify against the issuer's published keys.",
    );
  }
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid || error instanceof errors.JWKInvalid)
    return new AssertionRefused('malformed_token', 'The assertion is not a valid JWT.');
  return new IssuerUnreachable(
    `The issuer's key set could not be read: ${error instanceof Error ? error.message : String(error)}`,
  );
}

export interface IdJagClaims {
  issuer: string;
  subject: string;
  clientId: string;
  jti: string;
  expiresAt: Date;
  email: string | null;
}

/** Verifies an ID-JAG. The caller records its jti (single use) once it has verified. */
export async function verifyIdJag(token: unknown, ctx: VerifyContext): Promise<IdJagClaims> {
  try {
    const { issuer, issuerKeys } = precheck(token, tokenTypes.idJag);
    const { payload } = await jwtVerify(token as string, issuerKeys(ctx.issuers), {
      algorithms: assertionAlgorithms,
      typ: tokenTypes.idJag,
      issuer,
      audience: ctx.audiences,
      requiredClaims: ['sub', 'jti', 'iat', 'exp'],
      // jose allows the clock skew on top of maxTokenAge; the limit is the whole age, skew included.
      maxTokenAge: lifetimes.idJagMaxAgeSeconds - lifetimes.clockSkewSeconds,
      clockTolerance: lifetimes.clockSkewSeconds,
      currentDate: new Date(ctx.nowMs),
    });
    const { sub, jti, exp, iat } = payload as Required<Pick<JWTPayload, 'sub' | 'jti' | 'exp' | 'iat'>>;
    if (exp - iat > lifetimes.idJagMaxLifetimeSeconds)
      throw new AssertionRefused(
        'lifetime_too_long',
        `An ID-JAG may live at most ${lifetimes.idJagMaxLifetimeSeconds} seconds.`,
      );
    const clientId = payload.client_id;
    if (typeof clientId !== 'string' || !clientId)
      throw new AssertionRefused('missing_claim', 'The assertion has no "client_id".');
    if (!sub || !jti) throw new AssertionRefused('missing_claim', 'The assertion "sub" and "jti" must not be empty.');
    const email = typeof payload.email === 'string' && payload.email_verified === true ? payload.email : null;
    return { issuer, subject: sub, clientId, jti, expiresAt: new Date(exp * 1000), email };
  } catch (error) {
    throw refusalOf(error);
  }
}

export interface SecurityEvent {
  issuer: string;
  jti: string;
  issuedAt: Date;
  /** Event type URI to its payload. */
  events: Record<string, Record<string, unknown>>;
  /** The top-level `sub`, when the provider put the subject there. */
  subject: string | null;
  /** RFC 9493 subject identifier (`sub_id`), when present. */
  subjectId: Record<string, unknown> | null;
}

/** Security events may reach us late (retries), but not after a day. */
const maxEventAgeSeconds = 24 * 60 * 60;

export async function verifySecurityEvent(token: unknown, ctx: VerifyContext): Promise<SecurityEvent> {
  try {
    const { issuer, issuerKeys } = precheck(token, tokenTypes.securityEvent);
    const { payload } = await jwtVerify(token as string, issuerKeys(ctx.issuers), {
      algorithms: assertionAlgorithms,
      typ: tokenTypes.securityEvent,
      issuer,
      audience: ctx.audiences,
      requiredClaims: ['jti', 'iat'],
      maxTokenAge: maxEventAgeSeconds,
      clockTolerance: lifetimes.clockSkewSeconds,
      currentDate: new Date(ctx.nowMs),
    });
    const events = payload.events;
    if (!events || typeof events !== 'object' || Array.isArray(events))
      throw new AssertionRefused('missing_claim', 'The security event token has no "events" object.');
    const subId = payload.sub_id;
    return {
      issuer,
      jti: payload.jti ?? '',
      issuedAt: new Date((payload.iat ?? 0) * 1000),
      events: events as Record<string, Record<string, unknown>>,
      subject: typeof payload.sub === 'string' && payload.sub ? payload.sub : null,
      subjectId:
        subId && typeof subId === 'object' && !Array.isArray(subId) ? (subId as Record<string, unknown>) : null,
    };
  } catch (error) {
    throw refusalOf(error);
  }
}
