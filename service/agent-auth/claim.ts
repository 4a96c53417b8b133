/**
 * The claim ceremony. A person confirms an agent's registration by typing its user code on
 * the site's claim page (no email is sent); the agent meanwhile polls the token endpoint with
 * the claim grant. An agent whose code lapsed asks for a fresh one at the claim endpoint
 * (POST /agent/identity/claim, with its claim_token).
 */
import { z } from 'astro/zod';
import { overLimit, type AgentAuthDeps, type ClientContext } from './deps.ts';
import { guarded } from './guard.ts';
import { methodNotAllowed, oauthError, oauthJson } from './oauth-response.ts';
import { normalizeUserCode, type Registration } from './registry.ts';
import { BodyError, readForm, readJsonObject } from './request-body.ts';
import { claimBlock } from './registration.ts';
import { isOwnOrigin } from '../rules/site-origin.ts';

const restartBody = z.object({ claim_token: z.string({ error: 'claim_token must be a string' }).min(1).max(200) });

/** POST /agent/identity/claim: a fresh user code for a registration still waiting for a person. */
export function handleClaimRestart(request: Request, deps: AgentAuthDeps, client: ClientContext): Promise<Response> {
  return guarded('claim restart', async () => {
    if (request.method !== 'POST') return methodNotAllowed('POST');
    const limited = await overLimit(deps.limiters.claimAttempt, client);
    if (limited) return limited;
    const parsed = restartBody.safeParse(await readJsonObject(request));
    if (!parsed.success)
      return oauthError('invalid_request', 'Send {"claim_token": "<the claim_token from registration>"}.');
    const found = await deps.registry.findByClaimToken(parsed.data.claim_token);
    const now = new Date(deps.clock());
    if (!found || found.claim.expiresAt <= now)
      return oauthError('expired_token', 'This claim token is unknown or has lapsed; register again.');
    if (found.registration.status === 'revoked')
      return oauthError('invalid_grant', 'This registration was revoked; register again.', {
        reason: 'registration_revoked',
      });
    if (found.claim.confirmedAt)
      return oauthError(
        'invalid_request',
        'A person already confirmed this registration; poll the token endpoint with the claim grant.',
      );
    const { userCode, claim } = await deps.registry.renewUserCode(
      found.registration.id,
      deps.claimWindow.userCodeSeconds,
      now,
    );
    return oauthJson({
      registration_id: found.registration.id,
      status: 'pending',
      claim: claimBlock(deps, userCode, claim),
      expires_at: claim.userCodeExpiresAt.toISOString(),
    });
  });
}

/**
 * A browser form posts here only from our own page: the Origin (or, without one, Sec-Fetch-Site)
 * must say so. Nothing else checks it: the live functions are plain web handlers, outside Astro.
 * Only the configured site origin counts: request.url follows the Host header, which a page on a
 * rebound host name controls.
 */
function isSameOriginPost(request: Request, siteUrl: string): boolean {
  const origin = request.headers.get('Origin');
  if (origin) return isOwnOrigin(origin, siteUrl);
  return request.headers.get('Sec-Fetch-Site') === 'same-origin';
}

export type ClaimPageOutcome =
  | { kind: 'confirmed'; registration: Registration }
  | { kind: 'invalid_code'; typed: string }
  | { kind: 'cross_origin' }
  | { kind: 'too_many_attempts'; retryAfterSeconds: number }
  | { kind: 'bad_request' }
  | { kind: 'unavailable' };

/** The claim page's POST: one code typed by a person. */
export async function confirmOnClaimPage(
  request: Request,
  deps: AgentAuthDeps,
  client: ClientContext,
): Promise<ClaimPageOutcome> {
  if (!isSameOriginPost(request, deps.siteUrl)) return { kind: 'cross_origin' };
  const limited = await overLimit(deps.limiters.claimAttempt, client);
  if (limited)
    return { kind: 'too_many_attempts', retryAfterSeconds: Number(limited.headers.get('Retry-After') ?? '60') };
  let typed: string;
  try {
    typed = (await readForm(request, 2048)).get('user_code') ?? '';
  } catch (error) {
    if (error instanceof BodyError) return { kind: 'bad_request' };
    throw error;
  }
  const code = normalizeUserCode(typed);
  if (!code) return { kind: 'invalid_code', typed: typed.slice(0, 20) };
  try {
    const registration = await deps.registry.confirmByUserCode(code, new Date(deps.clock()));
    return registration ? { kind: 'confirmed', registration } : { kind: 'invalid_code', typed: code };
  } catch (error) {
    console.error(`[agent-auth] claim page: ${error instanceof Error ? error.message : String(error)}`);
    return { kind: 'unavailable' };
  }
}
