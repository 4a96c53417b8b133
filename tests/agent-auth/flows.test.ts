/**
 * The registration flows end to end at the handler level (real PGlite, real keys, the test
 * identity provider's JWK Set over HTTP): ID-JAG registration, exchange, revocation and
 * security events; anonymous and email registration through the claim ceremony.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { confirmOnClaimPage } from '../../service/agent-auth/claim.ts';
import { createAgentAuthLimiters } from '../../service/agent-auth/deps.ts';
import { jwtBearerGrant } from '../../service/agent-auth/metadata.ts';
import { claims, header, siteUrl, startHarness, type Harness } from './harness.ts';
import { startIdentityProvider, type IdentityProvider } from './identity-provider.ts';

let idp: IdentityProvider;
let h: Harness;

beforeAll(async () => {
  idp = await startIdentityProvider(siteUrl);
});
afterAll(() => idp.stop());
beforeEach(async () => {
  h = await startHarness({ trusted: [idp] });
});
afterEach(() => h.close());

async function registerWithIdJag(): Promise<{ identity_assertion: string; registration_id: string }> {
  const res = await h.register({
    type: 'identity_assertion',
    assertion_type: 'urn:ietf:params:oauth:token-type:id-jag',
    assertion: await idp.idJag(),
  });
  expect(res.status).toBe(200);
  return res.json();
}

async function accessTokenFor(assertion: string): Promise<string> {
  const res = await h.exchange(assertion);
  expect(res.status).toBe(200);
  return (await res.json()).access_token;
}

describe('ID-JAG registration', () => {
  it('registers, exchanges for a short-lived public.read token, and shows the token on /agent/credential', async () => {
    const res = await h.register({
      type: 'identity_assertion',
      assertion_type: 'urn:ietf:params:oauth:token-type:id-jag',
      assertion: await idp.idJag(),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const registration = await res.json();
    expect(registration).toMatchObject({
      registration_type: 'identity_assertion',
      status: 'active',
      scope: 'public.read',
    });
    expect(registration.claim).toBeUndefined();
    expect(header(registration.identity_assertion)).toMatchObject({
      typ: 'oauth-id-jag+jwt',
      alg: 'ES256',
      kid: h.keys.currentKid,
    });
    expect(claims(registration.identity_assertion)).toMatchObject({
      iss: siteUrl,
      aud: siteUrl,
      sub: registration.registration_id,
    });

    const exchange = await h.exchange(registration.identity_assertion);
    expect(exchange.status).toBe(200);
    expect(exchange.headers.get('cache-control')).toBe('no-store');
    const token = await exchange.json();
    expect(Object.keys(token).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
    expect(token).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: 'public.read' });
    expect(header(token.access_token)).toMatchObject({ typ: 'at+jwt', kid: h.keys.currentKid });
    const at = claims(token.access_token);
    expect(at).toMatchObject({ iss: siteUrl, aud: siteUrl, scope: 'public.read', sub: registration.registration_id });
    expect((at.exp ?? 0) - (at.iat ?? 0)).toBe(900);
    expect(at.jti).toEqual(expect.any(String));

    const credential = await h.credential(token.access_token);
    expect(credential.status).toBe(200);
    expect(await credential.json()).toMatchObject({
      active: true,
      registration_id: registration.registration_id,
      scope: 'public.read',
    });
  });

  it('exchanges for the MCP endpoint as resource too (its own protected resource metadata names it), and for nothing else', async () => {
    const { identity_assertion } = await registerWithIdJag();
    const forMcp = await h.token({
      grant_type: jwtBearerGrant,
      assertion: identity_assertion,
      resource: `${siteUrl}/mcp`,
    });
    expect(forMcp.status).toBe(200);
    const elsewhere = await h.token({
      grant_type: jwtBearerGrant,
      assertion: identity_assertion,
      resource: `${siteUrl}/v2`,
    });
    expect(await elsewhere.json()).toMatchObject({ error: 'invalid_target' });
  });

  it('refreshes by exchanging the same assertion again, until it expires', async () => {
    const { identity_assertion } = await registerWithIdJag();
    const first = await accessTokenFor(identity_assertion);
    h.advance(16 * 60);
    expect((await h.credential(first)).status).toBe(401);
    const second = await accessTokenFor(identity_assertion);
    expect(second).not.toBe(first);
    h.advance(24 * 60 * 60);
    const late = await h.exchange(identity_assertion);
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({ error: 'invalid_grant', reason: 'credential_expired' });
  });

  it('revokes an access token (RFC 7009): 200, and the token stops counting while the registration lives on', async () => {
    const { identity_assertion } = await registerWithIdJag();
    const token = await accessTokenFor(identity_assertion);
    const revoked = await h.revoke(token, 'access_token');
    expect(revoked.status).toBe(200);
    const after = await h.credential(token);
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${siteUrl}/.well-known/oauth-protected-resource", error="invalid_token", error_description="The access token or its registration was revoked."`,
    );
    expect((await h.exchange(identity_assertion)).status).toBe(200);
    // Unknown and repeated tokens get the same 200.
    expect((await h.revoke(token)).status).toBe(200);
    expect((await h.revoke('not-a-token')).status).toBe(200);
  });

  it('revoking the identity_assertion ends the registration', async () => {
    const { identity_assertion } = await registerWithIdJag();
    const token = await accessTokenFor(identity_assertion);
    expect((await h.revoke(identity_assertion, 'identity_assertion')).status).toBe(200);
    expect(await (await h.exchange(identity_assertion)).json()).toMatchObject({
      error: 'invalid_grant',
      reason: 'registration_revoked',
    });
    expect((await h.credential(token)).status).toBe(401);
  });

  it('a security event from the provider revokes the registration: the next exchange is invalid_grant', async () => {
    const { identity_assertion } = await registerWithIdJag();
    const token = await accessTokenFor(identity_assertion);
    const event = await idp.securityEvent();
    const res = await h.event(event);
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
    const exchange = await h.exchange(identity_assertion);
    expect(exchange.status).toBe(400);
    expect(await exchange.json()).toMatchObject({ error: 'invalid_grant', reason: 'registration_revoked' });
    expect((await h.credential(token)).status).toBe(401);
    // The same delivery again is accepted and changes nothing.
    expect((await h.event(event)).status).toBe(202);
    // A new ID-JAG after the revocation registers afresh.
    const again = await registerWithIdJag();
    expect((await h.exchange(again.identity_assertion)).status).toBe(200);
  });

  it('understands the subject in sub_id and top-level sub, and ignores unknown event types', async () => {
    const bySubId = await registerWithIdJag();
    const bySub = await h.register({
      type: 'identity_assertion',
      assertion_type: 'urn:ietf:params:oauth:token-type:id-jag',
      assertion: await idp.idJag({ claims: { sub: 'user-2' } }),
    });
    const bySubAssertion = (await bySub.json()).identity_assertion;
    const unknown = await idp.securityEvent({ claims: { events: { 'https://example.test/event/other': {} } } });
    expect((await h.event(unknown)).status).toBe(202);
    expect((await h.exchange(bySubId.identity_assertion)).status).toBe(200);

    const risc = 'https://schemas.openid.net/secevent/risc/event-type/account-disabled';
    expect(
      (
        await h.event(
          await idp.securityEvent({
            claims: { events: { [risc]: {} }, sub_id: { format: 'iss_sub', iss: idp.issuer, sub: 'user-1' } },
          }),
        )
      ).status,
    ).toBe(202);
    expect((await h.exchange(bySubId.identity_assertion)).status).toBe(400);
    expect((await h.exchange(bySubAssertion)).status).toBe(200);
    expect((await h.event(await idp.securityEvent({ claims: { events: { [risc]: {} }, sub: 'user-2' } }))).status).toBe(
      202,
    );
    expect((await h.exchange(bySubAssertion)).status).toBe(400);
  });
});

describe('anonymous registration (no consent step) and the optional claim', () => {
  async function registerAnonymous() {
    const res = await h.register({ type: 'anonymous' });
    expect(res.status).toBe(200);
    return res.json();
  }

  it('is active at once: the identity_assertion exchanges for an access token with no person involved', async () => {
    const body = await registerAnonymous();
    expect(body).toMatchObject({
      registration_type: 'anonymous',
      status: 'active',
      identity_assertion: expect.any(String),
      scope: 'public.read',
    });
    const exchange = await h.exchange(body.identity_assertion);
    expect(exchange.status).toBe(200);
    const token = await exchange.json();
    expect(token).toMatchObject({ token_type: 'Bearer', scope: 'public.read', expires_in: 900 });
    expect(await (await h.credential(token.access_token)).json()).toMatchObject({
      active: true,
      registration_type: 'anonymous',
      registration_id: body.registration_id,
    });
    // Refreshing is exchanging the same assertion again, as for any registration.
    h.advance(16 * 60);
    expect((await h.exchange(body.identity_assertion)).status).toBe(200);
  });

  it('offers a claim block, old and new field names, that never gates the exchange', async () => {
    const body = await registerAnonymous();
    expect(body.claim_token).toBe(body.claim.claim_token);
    expect(body.claim).toMatchObject({
      verification_uri: `${siteUrl}/agent/claim`,
      verification_uri_complete: `${siteUrl}/agent/claim?user_code=${body.claim.user_code}`,
      user_code: expect.stringMatching(/^[B-DF-HJ-NP-TV-XZ]{4}-[B-DF-HJ-NP-TV-XZ]{4}$/),
      interval: 5,
      expires_in: 600,
      claim_token: expect.stringMatching(/^clm_/),
      grant_type: 'urn:catalogue-test:agent-auth:grant-type:claim',
    });
    expect(body.claim_url).toBe(`${siteUrl}/agent/identity/claim`);
    expect(Date.parse(body.claim_token_expires)).toBeGreaterThan(Date.now());
    // Nobody claims it, and it keeps working until the assertion itself expires.
    h.advance(2 * 60 * 60);
    expect((await h.exchange(body.identity_assertion)).status).toBe(200);
    expect(await (await h.poll(body.claim_token)).json()).toMatchObject({ error: 'expired_token' });
  });

  it('lets a person attach it later: pending until the code is typed, slow_down when polled too fast, then the token once', async () => {
    const body = await registerAnonymous();
    expect(await (await h.poll(body.claim_token)).json()).toMatchObject({
      error: 'authorization_pending',
      interval: 5,
    });
    h.advance(1);
    const tooFast = await h.poll(body.claim_token);
    expect(tooFast.status).toBe(400);
    expect(await tooFast.json()).toMatchObject({ error: 'slow_down', interval: 10 });
    h.advance(6);
    expect(await (await h.poll(body.claim_token)).json()).toMatchObject({ error: 'slow_down', interval: 15 });
    h.advance(15);
    expect(await (await h.poll(body.claim_token)).json()).toMatchObject({
      error: 'authorization_pending',
      interval: 15,
    });
    // The exchange does not wait for the claim.
    expect((await h.exchange(body.identity_assertion)).status).toBe(200);

    expect(await h.confirm('BBBB-BBBB')).toMatchObject({ kind: 'invalid_code' });
    expect(await h.confirm(body.claim.user_code, { Origin: 'https://attacker.example' })).toEqual({
      kind: 'cross_origin',
    });
    expect(await h.confirm(body.claim.user_code, {})).toEqual({ kind: 'cross_origin' });
    expect(await h.confirm(body.claim.user_code, { 'Sec-Fetch-Site': 'cross-site' })).toEqual({ kind: 'cross_origin' });
    // A person confirms on the site's page, whose browser sends Origin with the POST; a POST without
    // it is a program's, whatever Sec-Fetch-Site it claims (service/http/browser-site.ts).
    expect(await h.confirm(body.claim.user_code, { 'Sec-Fetch-Site': 'same-origin' })).toEqual({
      kind: 'cross_origin',
    });
    expect(await h.confirm(body.claim.user_code, { 'Sec-Fetch-Site': 'none' })).toEqual({ kind: 'cross_origin' });
    // DNS rebinding: reached under the attacker's host name, request.url carries the attacker's origin as well.
    const rebound = new Request('http://attacker.example/agent/claim', {
      method: 'POST',
      body: new URLSearchParams({ user_code: body.claim.user_code }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'http://attacker.example' },
    });
    expect(await confirmOnClaimPage(rebound, h.deps, { clientIp: '203.0.113.7' })).toEqual({ kind: 'cross_origin' });

    const typed = body.claim.user_code.toLowerCase().replace('-', ' ');
    expect(await h.confirm(typed)).toMatchObject({
      kind: 'confirmed',
      registration: { id: body.registration_id, status: 'active' },
    });
    expect(await h.confirm(body.claim.user_code)).toMatchObject({ kind: 'invalid_code' });

    h.advance(15);
    const done = await h.poll(body.claim_token);
    expect(done.status).toBe(200);
    const token = await done.json();
    expect(token).toMatchObject({
      token_type: 'Bearer',
      scope: 'public.read',
      expires_in: 900,
      identity_assertion: expect.any(String),
    });
    expect(token.refresh_token).toBeUndefined();
    expect((await h.credential(token.access_token)).status).toBe(200);

    h.advance(15);
    expect(await (await h.poll(body.claim_token)).json()).toMatchObject({ error: 'invalid_grant' });
    expect((await h.exchange(body.identity_assertion)).status).toBe(200);
    expect((await h.exchange(token.identity_assertion)).status).toBe(200);
  });

  it('lets codes expire, hands out a fresh one at the claim endpoint, and closes the claim after an hour', async () => {
    const body = await registerAnonymous();
    h.advance(11 * 60);
    expect(await h.confirm(body.claim.user_code)).toMatchObject({ kind: 'invalid_code' });
    expect(await (await h.poll(body.claim_token)).json()).toMatchObject({ error: 'expired_token' });

    const restart = await h.restartClaim(body.claim_token);
    expect(restart.status).toBe(200);
    const fresh = await restart.json();
    expect(fresh.claim.user_code).not.toBe(body.claim.user_code);
    expect(fresh.claim.expires_in).toBe(600);
    expect(fresh.claim.claim_token).toBeUndefined();
    h.advance(10);
    expect(await (await h.poll(body.claim_token)).json()).toMatchObject({ error: 'authorization_pending' });
    expect(await (await h.restartClaim('clm_unknown')).json()).toMatchObject({ error: 'expired_token' });

    h.advance(50 * 60);
    expect(await h.confirm(fresh.claim.user_code)).toMatchObject({ kind: 'invalid_code' });
    expect(await (await h.poll(body.claim_token)).json()).toMatchObject({ error: 'expired_token' });
    expect(await (await h.restartClaim(body.claim_token)).json()).toMatchObject({ error: 'expired_token' });
    // The registration itself lives on: only the offer to attach it lapsed.
    expect((await h.exchange(body.identity_assertion)).status).toBe(200);
  });

  it('forgets an anonymous registration nobody claimed once its assertion has expired', async () => {
    const body = await registerAnonymous();
    h.advance(24 * 60 * 60 + 120);
    await h.register({ type: 'anonymous' });
    const { rows } = await h.sql.query('SELECT id FROM agent_registrations WHERE id = $1', [body.registration_id]);
    expect(rows).toEqual([]);
  });

  it('takes an email address as verified_email, confirmed the same way (no email is sent)', async () => {
    const bad = await h.register({
      type: 'identity_assertion',
      assertion_type: 'verified_email',
      assertion: 'not-an-address',
    });
    expect(await bad.json()).toMatchObject({ error: 'invalid_request' });
    const res = await h.register({
      type: 'identity_assertion',
      assertion_type: 'verified_email',
      assertion: 'walker@example.com',
    });
    const body = await res.json();
    expect(body).toMatchObject({ registration_type: 'verified_email', status: 'pending' });
    expect(await (await h.exchange(body.identity_assertion)).json()).toMatchObject({
      error: 'authorization_pending',
      interval: 5,
    });
    expect(await h.confirm(body.claim.user_code)).toMatchObject({ kind: 'confirmed' });
    expect((await h.exchange(body.identity_assertion)).status).toBe(200);
  });

  it('answers anonymous_not_enabled when AGENT_ANONYMOUS=off', async () => {
    const off = await startHarness({ trusted: [idp], anonymousEnabled: false });
    try {
      const res = await off.register({ type: 'anonymous' });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        error: 'anonymous_not_enabled',
        error_description: expect.stringContaining('public API'),
      });
    } finally {
      await off.close();
    }
  });

  it('limits registrations and claim attempts per client IP', async () => {
    const limited = await startHarness({ trusted: [idp], limiters: createAgentAuthLimiters() });
    try {
      for (let i = 0; i < 20; i++) expect((await limited.register({ type: 'anonymous' })).status).toBe(200);
      const over = await limited.register({ type: 'anonymous' });
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await over.json()).toMatchObject({ error: 'rate_limited' });
      for (let i = 0; i < 10; i++) expect(await limited.confirm('BBBB-BBBB')).toMatchObject({ kind: 'invalid_code' });
      expect(await limited.confirm('BBBB-BBBB')).toMatchObject({ kind: 'too_many_attempts' });
    } finally {
      await limited.close();
    }
  });
});
