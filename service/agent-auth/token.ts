/**
 * POST /oauth/token (form-encoded). Two grants:
 *   - jwt-bearer (RFC 7523): the agent's identity_assertion for a 15-minute access token; the
 *     same assertion can be exchanged again to refresh (there is no refresh token);
 *   - the claim grant: polling while a person confirms or attaches the registration (RFC 8628
 *     §3.5 semantics: authorization_pending, slow_down, expired_token), then the access token once.
 * Only a `pending` registration (an email one before its claim) waits for the claim; an anonymous
 * one is active from the start and exchanges at once.
 */
import { AssertionRefused, refusalOf } from './assertions.ts';
import { overLimit, type AgentAuthDeps, type ClientContext } from './deps.ts';
import { guarded } from './guard.ts';
import {
  agentAuthPaths,
  claimGrantType,
  jwtBearerGrant,
  lifetimes,
  publicReadScope,
  tokenResources,
} from './metadata.ts';
import { methodNotAllowed, oauthError, oauthJson } from './oauth-response.ts';
import type { Registration } from './registry.ts';
import { readForm } from './request-body.ts';

async function tokenResponse(
  deps: AgentAuthDeps,
  registration: Registration,
  extra: Record<string, unknown> = {},
): Promise<Response> {
  const nowMs = deps.clock();
  const issued = await deps.tokens.accessToken(registration, nowMs);
  return oauthJson({
    access_token: issued.token,
    token_type: 'Bearer',
    expires_in: lifetimes.accessTokenSeconds,
    scope: publicReadScope,
    ...extra,
  });
}

function restartRegistration(reason: 'registration_revoked' | 'registration_expired'): Response {
  const why =
    reason === 'registration_revoked' ? 'was revoked' : 'lapsed before anyone confirmed it, or is no longer known';
  return oauthError('invalid_grant', `This registration ${why}; register again at ${agentAuthPaths.identity}.`, {
    reason,
  });
}

async function jwtBearer(form: Map<string, string>, deps: AgentAuthDeps): Promise<Response> {
  const assertion = form.get('assertion');
  if (!assertion)
    return oauthError(
      'invalid_request',
      'The jwt-bearer grant needs an "assertion" (the identity_assertion from registration).',
    );
  const resource = form.get('resource');
  if (resource !== undefined && !tokenResources(deps.siteUrl).includes(resource)) {
    return oauthError(
      'invalid_target',
      `The resources here are ${deps.siteUrl} and ${deps.siteUrl}${agentAuthPaths.mcp}.`,
    );
  }
  const scope = form.get('scope');
  if (scope !== undefined && scope.split(' ').some((s) => s && s !== publicReadScope)) {
    return oauthError('invalid_scope', `The only scope is ${publicReadScope}.`);
  }
  const nowMs = deps.clock();
  let registrationId: string;
  try {
    registrationId = await deps.tokens.verifyIdentityAssertion(assertion, nowMs);
  } catch (error) {
    const refusal = refusalOf(error);
    const reason = refusal instanceof AssertionRefused ? refusal.reason : 'malformed_token';
    return oauthError(
      'invalid_grant',
      'The assertion is not a current identity_assertion issued by this site; register again.',
      { reason },
    );
  }
  const registration = await deps.registry.findRegistration(registrationId);
  if (!registration) return restartRegistration('registration_expired');
  if (registration.status === 'revoked') return restartRegistration('registration_revoked');
  if (registration.status === 'pending') {
    const claim = await deps.registry.findClaimOf(registration.id);
    if (!claim || claim.expiresAt.getTime() <= nowMs) return restartRegistration('registration_expired');
    return oauthError(
      'authorization_pending',
      'A person has not confirmed this registration yet; poll with the claim grant and your claim_token.',
      {
        extra: { interval: claim.intervalSeconds },
      },
    );
  }
  return tokenResponse(deps, registration);
}

async function claimGrant(form: Map<string, string>, deps: AgentAuthDeps): Promise<Response> {
  const claimToken = form.get('claim_token');
  if (!claimToken) return oauthError('invalid_request', 'The claim grant needs the "claim_token" from registration.');
  const found = await deps.registry.findByClaimToken(claimToken);
  if (!found)
    return oauthError('invalid_grant', 'Unknown or lapsed claim_token; register again.', {
      reason: 'registration_expired',
    });
  const { registration, claim } = found;
  const now = deps.clock();
  if (registration.status === 'revoked') return restartRegistration('registration_revoked');
  if (claim.redeemedAt)
    return oauthError(
      'invalid_grant',
      'This claim was already exchanged; use the identity_assertion with the jwt-bearer grant.',
    );
  // The claim itself was confirmed (a pending registration became active, or a person attached an anonymous one).
  if (claim.confirmedAt && registration.status === 'active') {
    if (!(await deps.registry.redeemClaim(registration.id, new Date(now)))) {
      return oauthError(
        'invalid_grant',
        'This claim was already exchanged; use the identity_assertion with the jwt-bearer grant.',
      );
    }
    const assertion = await deps.tokens.identityAssertion(registration, now);
    return tokenResponse(deps, registration, {
      identity_assertion: assertion.token,
      assertion_expires: assertion.expiresAt.toISOString(),
    });
  }
  if (claim.expiresAt.getTime() <= now)
    return oauthError('expired_token', 'Nobody confirmed this registration in time; register again.');
  const poll = await deps.registry.recordPoll(registration.id, new Date(now));
  if (!poll) return oauthError('invalid_grant', 'Unknown claim; register again.');
  if (poll.tooSoon) {
    return oauthError(
      'slow_down',
      `Polling faster than every ${poll.before.intervalSeconds} seconds; wait ${poll.intervalSeconds} seconds between polls.`,
      {
        extra: { interval: poll.intervalSeconds },
      },
    );
  }
  if (claim.userCodeExpiresAt.getTime() <= now) {
    return oauthError(
      'expired_token',
      `The user code expired; ask for a new one at ${agentAuthPaths.claimRestart} with your claim_token.`,
    );
  }
  return oauthError('authorization_pending', 'Waiting for a person to type the user code on the claim page.', {
    extra: { interval: poll.intervalSeconds },
  });
}

export function handleToken(request: Request, deps: AgentAuthDeps, client: ClientContext): Promise<Response> {
  return guarded('token', async () => {
    if (request.method !== 'POST') return methodNotAllowed('POST');
    const limited = await overLimit(deps.limiters.token, client);
    if (limited) return limited;
    const form = await readForm(request);
    const grantType = form.get('grant_type');
    if (!grantType) return oauthError('invalid_request', 'The "grant_type" parameter is missing.');
    if (grantType === jwtBearerGrant) return jwtBearer(form, deps);
    if (grantType === claimGrantType(deps.siteUrl)) return claimGrant(form, deps);
    return oauthError(
      'unsupported_grant_type',
      `Supported grant types: ${jwtBearerGrant}, ${claimGrantType(deps.siteUrl)}.`,
    );
  });
}
