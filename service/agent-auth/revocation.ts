/**
 * POST /oauth/revoke (RFC 7009). An access token is revoked by its jti until it would have
 * expired; an identity_assertion revokes its whole registration. Any other token is simply
 * not ours: the answer is 200 all the same, so the endpoint tells nothing about tokens.
 */
import { overLimit, type AgentAuthDeps, type ClientContext } from './deps.ts';
import { guarded } from './guard.ts';
import { methodNotAllowed, noStoreHeaders, oauthError } from './oauth-response.ts';
import { readForm } from './request-body.ts';

async function revoke(token: string, hint: string | undefined, deps: AgentAuthDeps): Promise<void> {
  const nowMs = deps.clock();
  const asAccessToken = async () => {
    const claims = await deps.tokens.verifyAccessToken(token, nowMs).catch(() => null);
    if (!claims) return false;
    await deps.registry.revokeAccessToken(claims.jti, claims.expiresAt);
    return true;
  };
  const asIdentityAssertion = async () => {
    const registrationId = await deps.tokens.verifyIdentityAssertion(token, nowMs).catch(() => null);
    if (!registrationId) return false;
    await deps.registry.revokeRegistration(registrationId, new Date(nowMs));
    return true;
  };
  // The hint only orders the attempts (RFC 7009 §2.1).
  const order =
    hint === 'identity_assertion' ? [asIdentityAssertion, asAccessToken] : [asAccessToken, asIdentityAssertion];
  for (const attempt of order) if (await attempt()) return;
}

export function handleRevocation(request: Request, deps: AgentAuthDeps, client: ClientContext): Promise<Response> {
  return guarded('revocation', async () => {
    if (request.method !== 'POST') return methodNotAllowed('POST');
    const limited = await overLimit(deps.limiters.token, client);
    if (limited) return limited;
    const form = await readForm(request);
    const token = form.get('token');
    if (!token) return oauthError('invalid_request', 'The "token" parameter is missing.');
    if (token.length <= 8192) await revoke(token, form.get('token_type_hint'), deps);
    return new Response(null, { status: 200, headers: noStoreHeaders });
  });
}
