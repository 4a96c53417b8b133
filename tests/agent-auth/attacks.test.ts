/**
 * Every way in we know of, refused for the right reason and never with a 500: forged and
 * mistyped assertions, wrong audiences and issuers, stale or replayed tokens, tampered
 * signatures, tokens in the wrong place, garbage bodies, forged security events.
 */
import fc from 'fast-check';
import { base64url, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimGrantType, jwtBearerGrant } from '../../service/agent-auth/metadata.ts';
import { handleRegistration } from '../../service/agent-auth/registration.ts';
import { handleToken } from '../../service/agent-auth/token.ts';
import { handleSecurityEvent } from '../../service/agent-auth/events.ts';
import { handleRevocation } from '../../service/agent-auth/revocation.ts';
import { handleClaimRestart } from '../../service/agent-auth/claim.ts';
import { siteUrl, startHarness, type Harness } from './harness.ts';
import { startIdentityProvider, type IdentityProvider } from './identity-provider.ts';

let idp: IdentityProvider;
let stranger: IdentityProvider;
let h: Harness;

beforeAll(async () => {
  idp = await startIdentityProvider(siteUrl);
  stranger = await startIdentityProvider(siteUrl);
  h = await startHarness({ trusted: [idp] });
});
afterAll(async () => {
  await h.close();
  await idp.stop();
  await stranger.stop();
});

const idJag = 'urn:ietf:params:oauth:token-type:id-jag';
const enc = (value: unknown) => base64url.encode(JSON.stringify(value));

async function refusal(assertion: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await h.register({ type: 'identity_assertion', assertion_type: idJag, assertion });
  return { status: res.status, body: await res.json() };
}

function payloadOf(now = Math.floor(Date.now() / 1000)) {
  return {
    iss: idp.issuer,
    sub: 'user-1',
    aud: siteUrl,
    client_id: 'agent-client-1',
    jti: crypto.randomUUID(),
    iat: now,
    exp: now + 300,
  };
}

describe('ID-JAG attacks at registration', () => {
  const cases: [string, () => Promise<string>, string][] = [
    [
      'alg none',
      async () => `${enc({ alg: 'none', typ: 'oauth-id-jag+jwt' })}.${enc(payloadOf())}.`,
      'unsupported_algorithm',
    ],
    [
      'HMAC with the public key (PEM) as the secret',
      () =>
        new SignJWT(payloadOf())
          .setProtectedHeader({ alg: 'HS256', typ: 'oauth-id-jag+jwt', kid: idp.kid })
          .sign(new TextEncoder().encode(idp.publicPem)),
      'unsupported_algorithm',
    ],
    [
      'HMAC with the public JWK as the secret',
      () =>
        new SignJWT(payloadOf())
          .setProtectedHeader({ alg: 'HS256', typ: 'oauth-id-jag+jwt', kid: idp.kid })
          .sign(new TextEncoder().encode(JSON.stringify(idp.publicJwk))),
      'unsupported_algorithm',
    ],
    ['missing typ', () => idp.idJag({ header: { typ: undefined } }), 'invalid_type'],
    ['typ JWT', () => idp.idJag({ header: { typ: 'JWT' } }), 'invalid_type'],
    ['typ of an access token', () => idp.idJag({ header: { typ: 'at+jwt' } }), 'invalid_type'],
    ['wrong aud', () => idp.idJag({ claims: { aud: 'https://other.example' } }), 'audience_mismatch'],
    ['aud of a look-alike host', () => idp.idJag({ claims: { aud: `${siteUrl}.evil.example` } }), 'audience_mismatch'],
    ['untrusted issuer, validly signed', () => stranger.idJag(), 'issuer_not_enabled'],
    [
      "trusted issuer name, stranger's key",
      () => stranger.idJag({ claims: { iss: idp.issuer }, header: { kid: idp.kid } }),
      'invalid_signature',
    ],
    ['unknown kid', () => idp.idJag({ header: { kid: 'no-such-key' } }), 'invalid_signature'],
    [
      'expired',
      () => idp.idJag({ now: Math.floor(Date.now() / 1000) - 400, lifetimeSeconds: 300 }),
      'credential_expired',
    ],
    [
      'issued long ago',
      () => idp.idJag({ now: Math.floor(Date.now() / 1000) - 30 * 60, lifetimeSeconds: 3600 }),
      'credential_expired',
    ],
    ['issued in the future', () => idp.idJag({ now: Math.floor(Date.now() / 1000) + 600 }), 'issued_in_future'],
    ['lives too long', () => idp.idJag({ lifetimeSeconds: 3 * 3600 }), 'lifetime_too_long'],
    ['no client_id', () => idp.idJag({ omit: ['client_id'] }), 'missing_claim'],
    ['no jti', () => idp.idJag({ omit: ['jti'] }), 'missing_claim'],
    ['no exp', () => idp.idJag({ omit: ['exp'] }), 'missing_claim'],
    ['no sub', () => idp.idJag({ omit: ['sub'] }), 'missing_claim'],
    [
      'tampered signature',
      async () => {
        const [head, body, sig = ''] = (await idp.idJag()).split('.');
        const flipped = `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
        return `${head}.${body}.${flipped}`;
      },
      'invalid_signature',
    ],
    [
      'tampered payload (another subject)',
      async () => {
        const [head, , sig] = (await idp.idJag()).split('.');
        return `${head}.${enc({ ...payloadOf(), sub: 'admin' })}.${sig}`;
      },
      'invalid_signature',
    ],
    ['not a JWT at all', async () => 'hello', 'malformed_token'],
    [
      "the site's own identity assertion",
      async () => (await (await h.register({ type: 'anonymous' })).json()).identity_assertion,
      'issuer_not_enabled',
    ],
  ];

  for (const [name, mint, reason] of cases) {
    it(`refuses ${name}`, async () => {
      const { status, body } = await refusal(await mint());
      expect(status, JSON.stringify(body)).toBe(400);
      expect(body).toMatchObject({ error: 'invalid_grant', reason, error_description: expect.any(String) });
    });
  }

  it('takes an assertion up to 10 minutes old, the clock skew included, and not a second more', async () => {
    const now = Math.floor(h.deps.clock() / 1000);
    const young = await refusal(await idp.idJag({ now: now - 595, lifetimeSeconds: 3600 }));
    expect(young.status, JSON.stringify(young.body)).toBe(200);
    for (const age of [601, 11 * 60]) {
      const { status, body } = await refusal(await idp.idJag({ now: now - age, lifetimeSeconds: 3600 }));
      expect(status, `${age} s old`).toBe(400);
      expect(body).toMatchObject({ error: 'invalid_grant', reason: 'credential_expired' });
    }
  });

  it('refuses a replayed jti', async () => {
    const assertion = await idp.idJag();
    expect((await refusal(assertion)).status).toBe(200);
    const again = await refusal(assertion);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: 'invalid_grant', reason: 'replay_detected' });
  });

  it('does not let a forged token burn a real jti', async () => {
    const real = await idp.idJag();
    const jti = JSON.parse(new TextDecoder().decode(base64url.decode(real.split('.')[1] ?? ''))).jti as string;
    const forged = await stranger.idJag({ claims: { iss: idp.issuer, jti }, header: { kid: idp.kid } });
    expect((await refusal(forged)).body.reason).toBe('invalid_signature');
    expect((await refusal(real)).status).toBe(200);
  });
});

describe('bodies', () => {
  const post = (body: BodyInit, type = 'application/json', init: RequestInit = {}) =>
    handleRegistration(
      new Request(`${siteUrl}/agent/identity`, { method: 'POST', body, headers: { 'Content-Type': type }, ...init }),
      h.deps,
      { clientIp: '203.0.113.9' },
    );

  it('refuses an oversize body with 413, a non-JSON one with 400, other media types with 415', async () => {
    const big = await post(JSON.stringify({ type: 'anonymous', pad: 'x'.repeat(20_000) }));
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: 'invalid_request' });
    for (const body of ['{"type":', 'null', '[1,2]', '"anonymous"', '', '\u0000\u0001']) {
      const res = await post(body);
      expect(res.status, body).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_request' });
    }
    const form = await post('type=anonymous', 'application/x-www-form-urlencoded');
    expect(form.status).toBe(415);
    expect((await post(new Uint8Array([0xff, 0xfe, 0x00]))).status).toBe(400);
  });

  it('refuses bodies of the wrong shape with invalid_request', async () => {
    for (const body of [
      {},
      { type: 'admin' },
      { type: 'identity_assertion' },
      { type: 'identity_assertion', assertion_type: 'saml', assertion: 'x' },
      { type: 'identity_assertion', assertion_type: idJag, assertion: 42 },
      { type: 'anonymous', requested_credential_type: 'api_key' },
    ]) {
      const res = await post(JSON.stringify(body));
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_request' });
    }
    const get = await handleRegistration(new Request(`${siteUrl}/agent/identity`), h.deps, { clientIp: '203.0.113.9' });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('never answers 5xx to random bytes on any endpoint', async () => {
    const client = { clientIp: '203.0.113.10' };
    const endpoints = [
      (body: BodyInit, type: string) =>
        handleRegistration(
          new Request(`${siteUrl}/agent/identity`, { method: 'POST', body, headers: { 'Content-Type': type } }),
          h.deps,
          client,
        ),
      (body: BodyInit, type: string) =>
        handleToken(
          new Request(`${siteUrl}/oauth/token`, { method: 'POST', body, headers: { 'Content-Type': type } }),
          h.deps,
          client,
        ),
      (body: BodyInit, type: string) =>
        handleRevocation(
          new Request(`${siteUrl}/oauth/revoke`, { method: 'POST', body, headers: { 'Content-Type': type } }),
          h.deps,
          client,
        ),
      (body: BodyInit, type: string) =>
        handleClaimRestart(
          new Request(`${siteUrl}/agent/identity/claim`, { method: 'POST', body, headers: { 'Content-Type': type } }),
          h.deps,
          client,
        ),
      (body: BodyInit, type: string) =>
        handleSecurityEvent(
          new Request(`${siteUrl}/agent/event/notify`, { method: 'POST', body, headers: { 'Content-Type': type } }),
          h.deps,
          client,
        ),
    ];
    const types = ['application/json', 'application/x-www-form-urlencoded', 'application/secevent+jwt', 'text/plain'];
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 512 }),
        fc.constantFrom(...types),
        fc.integer({ min: 0, max: endpoints.length - 1 }),
        async (bytes, type, which) => {
          const res = await endpoints[which]!(bytes.slice(), type);
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('token endpoint attacks', () => {
  it('refuses what is not a current identity_assertion of this site with invalid_grant', async () => {
    const registration = await (
      await h.register({ type: 'identity_assertion', assertion_type: idJag, assertion: await idp.idJag() })
    ).json();
    const access = (await (await h.exchange(registration.identity_assertion)).json()).access_token as string;
    const forged = await new SignJWT({ sub: registration.registration_id, aud: siteUrl, iss: siteUrl, jti: 'x' })
      .setProtectedHeader({ alg: 'HS256', typ: 'oauth-id-jag+jwt' })
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('guess'));
    for (const assertion of [
      await idp.idJag(),
      access,
      forged,
      'garbage',
      `${registration.identity_assertion.slice(0, -2)}xx`,
    ]) {
      const res = await h.exchange(assertion);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_grant' });
    }
    expect(await (await h.exchange(access)).json()).toMatchObject({ reason: 'invalid_type' });
    expect(await (await h.exchange(forged)).json()).toMatchObject({ reason: 'unsupported_algorithm' });
    // An identity assertion is not an access token either.
    expect((await h.credential(registration.identity_assertion)).status).toBe(401);
  });

  it('answers unsupported_grant_type, invalid_request, invalid_target and invalid_scope', async () => {
    const registration = await (
      await h.register({ type: 'identity_assertion', assertion_type: idJag, assertion: await idp.idJag() })
    ).json();
    const cases: [Record<string, string>, string][] = [
      [{ grant_type: 'password', username: 'a', password: 'b' }, 'unsupported_grant_type'],
      [{ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: 'x' }, 'unsupported_grant_type'],
      [{ assertion: registration.identity_assertion }, 'invalid_request'],
      [{ grant_type: jwtBearerGrant }, 'invalid_request'],
      [{ grant_type: claimGrantType(siteUrl) }, 'invalid_request'],
      [{ grant_type: claimGrantType(siteUrl), claim_token: 'clm_guess' }, 'invalid_grant'],
      [
        { grant_type: jwtBearerGrant, assertion: registration.identity_assertion, resource: 'https://other.example' },
        'invalid_target',
      ],
      [{ grant_type: jwtBearerGrant, assertion: registration.identity_assertion, scope: 'admin' }, 'invalid_scope'],
    ];
    for (const [form, error] of cases) {
      const res = await h.token(form);
      expect(res.status, JSON.stringify(form)).toBe(400);
      expect(await res.json()).toMatchObject({ error });
    }
    const repeated = await handleToken(
      new Request(`${siteUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `grant_type=${jwtBearerGrant}&grant_type=password`,
      }),
      h.deps,
      { clientIp: '203.0.113.11' },
    );
    expect(await repeated.json()).toMatchObject({ error: 'invalid_request' });
    const json = await handleToken(
      new Request(`${siteUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      }),
      h.deps,
      { clientIp: '203.0.113.11' },
    );
    expect(json.status).toBe(415);
    expect(await json.json()).toMatchObject({ error: 'invalid_request' });
    const ok = await h.token({
      grant_type: jwtBearerGrant,
      assertion: registration.identity_assertion,
      resource: `${siteUrl}/`,
      scope: 'public.read',
    });
    expect(ok.status).toBe(200);
    expect((await h.revoke('')).status).toBe(400);
  });

  it('refuses a revoked registration at exchange', async () => {
    const registration = await (
      await h.register({
        type: 'identity_assertion',
        assertion_type: idJag,
        assertion: await idp.idJag({ claims: { sub: 'user-9' } }),
      })
    ).json();
    expect(
      (
        await h.event(
          await idp.securityEvent({
            claims: {
              sub: 'user-9',
              events: { 'https://schemas.openid.net/secevent/risc/event-type/sessions-revoked': {} },
            },
          }),
        )
      ).status,
    ).toBe(202);
    expect(await (await h.exchange(registration.identity_assertion)).json()).toMatchObject({
      error: 'invalid_grant',
      reason: 'registration_revoked',
    });
  });
});

describe('security event attacks', () => {
  async function registered(sub: string) {
    const body = await (
      await h.register({
        type: 'identity_assertion',
        assertion_type: idJag,
        assertion: await idp.idJag({ claims: { sub } }),
      })
    ).json();
    return body.identity_assertion as string;
  }

  it('refuses forged, misaddressed or mistyped events and revokes nothing', async () => {
    const assertion = await registered('victim');
    const event = {
      events: {
        'https://schemas.openid.net/secevent/caep/event-type/session-revoked': {
          subject: { format: 'iss_sub', iss: idp.issuer, sub: 'victim' },
        },
      },
    };
    const cases: [string, () => Promise<string>, string, string?][] = [
      ['untrusted issuer', () => stranger.securityEvent({ claims: event }), 'invalid_issuer'],
      [
        'trusted name, stranger key',
        () => stranger.securityEvent({ claims: { ...event, iss: idp.issuer }, header: { kid: idp.kid } }),
        'authentication_failed',
      ],
      [
        'wrong audience',
        () => idp.securityEvent({ claims: { ...event, aud: 'https://other.example' } }),
        'invalid_audience',
      ],
      ['wrong typ', () => idp.securityEvent({ claims: event, header: { typ: 'JWT' } }), 'invalid_request'],
      [
        'alg none',
        async () =>
          `${enc({ alg: 'none', typ: 'secevent+jwt' })}.${enc({ ...event, iss: idp.issuer, aud: siteUrl, iat: Math.floor(Date.now() / 1000), jti: 'n' })}.`,
        'authentication_failed',
      ],
      [
        'dated in the future',
        () => idp.securityEvent({ claims: event, now: Math.floor(Date.now() / 1000) + 3600 }),
        'authentication_failed',
      ],
      [
        'no subject',
        () =>
          idp.securityEvent({
            claims: { events: { 'https://schemas.openid.net/secevent/caep/event-type/session-revoked': {} } },
          }),
        'invalid_request',
      ],
      [
        "another issuer's subject",
        () =>
          idp.securityEvent({
            claims: {
              events: {
                'https://schemas.openid.net/secevent/caep/event-type/session-revoked': {
                  subject: { format: 'iss_sub', iss: stranger.issuer, sub: 'victim' },
                },
              },
            },
          }),
        'invalid_request',
      ],
      ['wrong media type', () => idp.securityEvent({ claims: event }), 'invalid_request', 'application/json'],
    ];
    for (const [name, mint, err, type] of cases) {
      const res = await h.event(await mint(), type);
      expect(res.status, name).toBeGreaterThanOrEqual(400);
      expect(res.status, name).toBeLessThan(500);
      expect(await res.json(), name).toMatchObject({ err, error: err, description: expect.any(String) });
    }
    expect((await h.exchange(assertion)).status).toBe(200);
  });
});
