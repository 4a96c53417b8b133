/**
 * GET /agent/credential: what the presented access token stands for, or a 401 that points
 * at the protected resource metadata. It lets an agent (and a test) see that a revoked token
 * or registration no longer counts; /v1 itself ignores tokens.
 */
import { overLimit, type AgentAuthDeps, type ClientContext } from './deps.ts';
import { guarded } from './guard.ts';
import { methodNotAllowed, oauthJson, unauthorized } from './oauth-response.ts';

export function handleCredential(request: Request, deps: AgentAuthDeps, client: ClientContext): Promise<Response> {
  return guarded('credential', async () => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed('GET');
    const limited = await overLimit(deps.limiters.credential, client);
    if (limited) return limited;
    const header = request.headers.get('Authorization') ?? '';
    const match = /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i.exec(header);
    if (!match?.[1]) return unauthorized(deps.siteUrl, 'Send an access token as Authorization: Bearer <token>.', false);
    const nowMs = deps.clock();
    const claims = await deps.tokens.verifyAccessToken(match[1], nowMs).catch(() => null);
    if (!claims) return unauthorized(deps.siteUrl, 'The access token is invalid or expired.', true);
    const registration = await deps.registry.findRegistration(claims.registrationId);
    if ((await deps.registry.isAccessTokenRevoked(claims.jti)) || registration?.status !== 'active') {
      return unauthorized(deps.siteUrl, 'The access token or its registration was revoked.', true);
    }
    return oauthJson({
      active: true,
      registration_id: registration.id,
      registration_type: registration.kind,
      client_id: registration.id,
      scope: claims.scope,
      exp: Math.floor(claims.expiresAt.getTime() / 1000),
    });
  });
}
