/**
 * POST /agent/auth and POST /agent/identity: an agent registers, anonymously or with an
 * identity assertion, and receives a service-signed identity_assertion to exchange at the
 * token endpoint. An anonymous registration has no consent step: it is active at once, and its
 * claim block only offers a person the chance to attach it later. An email registration waits
 * for a person to confirm it on the claim page. The claim block has the RFC 8628 shape.
 */
import { z } from 'astro/zod';
import { AssertionRefused, verifyIdJag } from './assertions.ts';
import { overLimit, type AgentAuthDeps, type ClientContext } from './deps.ts';
import { guarded } from './guard.ts';
import {
  agentAuthPaths,
  claimGrantType,
  idJagAssertionType,
  publicReadScope,
  resourceAudiences,
  verifiedEmailAssertionType,
} from './metadata.ts';
import { methodNotAllowed, oauthError, oauthJson } from './oauth-response.ts';
import type { Claim, ClaimSecrets, Registration, RegistrationKind } from './registry.ts';
import { readJsonObject } from './request-body.ts';

const credentialType = z
  .literal('access_token', { error: 'requested_credential_type: only "access_token" is issued here' })
  .optional();

const registrationBody = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('anonymous'), requested_credential_type: credentialType }),
    z.object({
      type: z.literal('identity_assertion'),
      assertion_type: z.enum([idJagAssertionType, verifiedEmailAssertionType], {
        error: `assertion_type must be "${idJagAssertionType}" or "${verifiedEmailAssertionType}"`,
      }),
      assertion: z
        .string({ error: 'assertion must be a string' })
        .min(1, { error: 'assertion must not be empty' })
        .max(8192, { error: 'assertion is too long' }),
      requested_credential_type: credentialType,
    }),
  ],
  { error: 'type must be "anonymous" or "identity_assertion"' },
);

function describe(error: z.ZodError): string {
  return error.issues.map((issue) => issue.message).join('; ');
}

function secondsUntil(when: Date, nowMs: number): number {
  return Math.max(0, Math.floor((when.getTime() - nowMs) / 1000));
}

/** The claim block: RFC 8628 names, plus the earlier auth.md names for older clients. */
export function claimBlock(deps: AgentAuthDeps, userCode: string, claim: Claim, claimToken?: string) {
  const nowMs = deps.clock();
  const verificationUri = `${deps.siteUrl}${agentAuthPaths.claimPage}`;
  return {
    verification_uri: verificationUri,
    verification_uri_complete: `${verificationUri}?user_code=${encodeURIComponent(userCode)}`,
    user_code: userCode,
    expires_in: secondsUntil(claim.userCodeExpiresAt, nowMs),
    interval: claim.intervalSeconds,
    ...(claimToken ? { claim_token: claimToken } : {}),
    grant_type: claimGrantType(deps.siteUrl),
    token_endpoint: `${deps.siteUrl}${agentAuthPaths.token}`,
  };
}

async function registeredResponse(
  deps: AgentAuthDeps,
  registration: Registration,
  openClaim: (ClaimSecrets & { claim: Claim }) | null,
): Promise<Response> {
  const nowMs = deps.clock();
  const assertion = await deps.tokens.identityAssertion(registration, nowMs);
  const body: Record<string, unknown> = {
    registration_id: registration.id,
    registration_type: registration.kind,
    status: registration.status,
    identity_assertion: assertion.token,
    assertion_expires: assertion.expiresAt.toISOString(),
    assertion_expires_in: secondsUntil(assertion.expiresAt, nowMs),
    credential_types_supported: ['access_token'],
    scope: publicReadScope,
    token_endpoint: `${deps.siteUrl}${agentAuthPaths.token}`,
  };
  if (openClaim) {
    body.claim = claimBlock(deps, openClaim.userCode, openClaim.claim, openClaim.claimToken);
    body.claim_url = `${deps.siteUrl}${agentAuthPaths.claimRestart}`;
    body.claim_token = openClaim.claimToken;
    body.claim_token_expires = openClaim.claim.expiresAt.toISOString();
    body.post_claim_scopes = [publicReadScope];
  }
  return oauthJson(body, 200);
}

/** A registration with an open claim: `active` when the claim is optional (anonymous), `pending` when it gates the exchange. */
async function registerWithClaim(
  deps: AgentAuthDeps,
  kind: RegistrationKind,
  status: 'active' | 'pending',
  emailHint?: string,
): Promise<Response> {
  const now = new Date(deps.clock());
  const registration = await deps.registry.register({ kind, status, emailHint }, now);
  const pending = await deps.registry.openClaim(registration.id, deps.claimWindow, now);
  return registeredResponse(deps, registration, pending);
}

async function registerWithIdJag(deps: AgentAuthDeps, assertion: string): Promise<Response> {
  const nowMs = deps.clock();
  let claims;
  try {
    claims = await verifyIdJag(assertion, { issuers: deps.issuers, audiences: resourceAudiences(deps.siteUrl), nowMs });
  } catch (error) {
    if (error instanceof AssertionRefused) return oauthError('invalid_grant', error.message, { reason: error.reason });
    throw error;
  }
  // Recorded only after the signature verified, so forged tokens cannot burn real ids.
  if (!(await deps.registry.useAssertionId(claims.issuer, claims.jti, claims.expiresAt))) {
    return oauthError('invalid_grant', 'This ID-JAG was already used; mint a fresh one with a new jti.', {
      reason: 'replay_detected',
    });
  }
  const registration = await deps.registry.register(
    {
      kind: 'identity_assertion',
      status: 'active',
      issuer: claims.issuer,
      subject: claims.subject,
      clientId: claims.clientId,
      emailHint: claims.email ?? undefined,
    },
    new Date(nowMs),
  );
  return registeredResponse(deps, registration, null);
}

export function handleRegistration(request: Request, deps: AgentAuthDeps, client: ClientContext): Promise<Response> {
  return guarded('registration', async () => {
    if (request.method !== 'POST') return methodNotAllowed('POST');
    const limited = await overLimit(deps.limiters.registration, client);
    if (limited) return limited;
    const parsed = registrationBody.safeParse(await readJsonObject(request));
    if (!parsed.success) return oauthError('invalid_request', describe(parsed.error));
    const body = parsed.data;
    if (body.type === 'anonymous') {
      if (!deps.anonymousEnabled) {
        return oauthError(
          'anonymous_not_enabled',
          'Anonymous registration is not enabled here; register with an identity assertion, or use the public API, which needs no credential.',
        );
      }
      return registerWithClaim(deps, 'anonymous', 'active');
    }
    if (body.assertion_type === verifiedEmailAssertionType) {
      const email = z.email().max(254).safeParse(body.assertion);
      if (!email.success)
        return oauthError('invalid_request', 'For verified_email the assertion must be an email address.');
      // No email is sent: a person confirms on the claim page, so the address stays a hint.
      return registerWithClaim(deps, 'verified_email', 'pending', email.data);
    }
    return registerWithIdJag(deps, body.assertion);
  });
}
