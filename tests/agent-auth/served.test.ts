/**
 * The whole flow against the built site served by server.ts, as an agent would follow it:
 * only the metadata documents and auth.md tell it where to go. A test identity provider
 * serves its JWK Set on loopback; a person confirms through the real claim page (plain HTTP,
 * and once in Chromium).
 */
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { startServer } from '../helpers/project.ts';
import { chromiumPath } from '../helpers/requirements.ts';
import { startIdentityProvider, type IdentityProvider } from './identity-provider.ts';

let idp: IdentityProvider;
let server: InProcessServer;
let site: string;
let prm: Record<string, any>;
let as: Record<string, any>;

beforeAll(async () => {
  idp = await startIdentityProvider('pending');
  server = await startInProcess(inject('fixtureSite'), { SITE_URL: '', AGENT_TRUSTED_ISSUERS: idp.trustSetting });
  // With SITE_URL unset the site's origin is http://localhost:<port>, which reaches this server.
  site = `http://localhost:${server.port}`;
  prm = await (await fetch(`${site}/.well-known/oauth-protected-resource`)).json();
  as = await (await fetch(`${prm.authorization_servers[0]}/.well-known/oauth-authorization-server`)).json();
  idp.audience = prm.resource;
});
afterAll(async () => {
  await server?.stop();
  await idp?.stop();
});

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});
const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

describe('discovery', () => {
  it('publishes protected resource and authorization server metadata from the running origin', async () => {
    expect(prm).toEqual({
      resource: site,
      resource_name: expect.any(String),
      authorization_servers: [site],
      scopes_supported: ['public.read'],
      bearer_methods_supported: ['header'],
      resource_documentation: `${site}/auth.md`,
    });
    expect(as.issuer).toBe(prm.authorization_servers[0]);
    expect(as).toMatchObject({
      authorization_endpoint: `${site}/agent/claim`,
      token_endpoint: `${site}/oauth/token`,
      jwks_uri: `${site}/.well-known/jwks.json`,
      revocation_endpoint: `${site}/oauth/revoke`,
      grant_types_supported: [
        'urn:ietf:params:oauth:grant-type:jwt-bearer',
        'urn:localhost:agent-auth:grant-type:claim',
      ],
      response_types_supported: ['none'],
    });
    expect(as.agent_auth).toMatchObject({
      skill: `${site}/auth.md`,
      register_uri: `${site}/agent/auth`,
      identity_endpoint: `${site}/agent/identity`,
      claim_uri: `${site}/agent/identity/claim`,
      claim_endpoint: `${site}/agent/identity/claim`,
      revocation_uri: `${site}/oauth/revoke`,
      events_endpoint: `${site}/agent/event/notify`,
      identity_types_supported: ['anonymous', 'identity_assertion'],
      anonymous: { credential_types_supported: ['access_token'] },
      identity_assertion: {
        assertion_types_supported: ['urn:ietf:params:oauth:token-type:id-jag', 'verified_email'],
        credential_types_supported: ['access_token'],
        trusted_issuers: [idp.issuer],
      },
    });
    expect(JSON.stringify(as)).not.toContain('service_auth');
    const oidc = await fetch(`${site}/.well-known/openid-configuration`);
    expect(oidc.headers.get('access-control-allow-origin')).toBe('*');
    expect(await oidc.json()).toEqual(as);
  });

  it('publishes the signing key with its kid, and auth.md', async () => {
    const jwks = await fetch(as.jwks_uri);
    expect(jwks.headers.get('content-type')).toBe('application/jwk-set+json');
    const { keys } = await jwks.json();
    expect(keys).toEqual([
      expect.objectContaining({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: expect.any(String) }),
    ]);
    expect(keys[0].d).toBeUndefined();

    const md = await fetch(as.agent_auth.skill);
    expect(md.status).toBe(200);
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const text = await md.text();
    expect(text.split('\n')[0]).toMatch(/^# .*auth\.md/);
    for (const value of [
      prm.resource,
      as.token_endpoint,
      as.revocation_endpoint,
      as.agent_auth.identity_endpoint,
      as.agent_auth.claim_endpoint,
      as.agent_auth.events_endpoint,
      as.grant_types_supported[1],
      idp.issuer,
    ]) {
      expect(text).toContain(value);
    }
  });
});

describe('an agent with an ID-JAG', () => {
  it('registers, exchanges, calls /v1 (unchanged), revokes, and gets invalid_grant after a security event', async () => {
    const registered = await fetch(
      as.agent_auth.identity_endpoint,
      json({
        type: 'identity_assertion',
        assertion_type: 'urn:ietf:params:oauth:token-type:id-jag',
        assertion: await idp.idJag(),
      }),
    );
    expect(registered.status).toBe(200);
    const { identity_assertion } = await registered.json();

    // A form-encoded POST without Origin, as agents send it.
    const exchanged = await fetch(
      as.token_endpoint,
      form({ grant_type: as.grant_types_supported[0], assertion: identity_assertion, resource: prm.resource }),
    );
    expect(exchanged.status).toBe(200);
    const token = await exchanged.json();
    expect(token).toMatchObject({ token_type: 'Bearer', scope: 'public.read', expires_in: 900 });
    expect(token.refresh_token).toBeUndefined();
    const verified = await jwtVerify(token.access_token, createRemoteJWKSet(new URL(as.jwks_uri)), {
      issuer: as.issuer,
      audience: prm.resource,
      typ: 'at+jwt',
    });
    expect(verified.payload.scope).toBe('public.read');

    for (const path of ['/v1/', '/v1/trips?type=trek', '/v1/peaks/sample-peak', '/v1/nope']) {
      const plain = await fetch(`${site}${path}`);
      const withToken = await fetch(`${site}${path}`, { headers: { Authorization: `Bearer ${token.access_token}` } });
      expect(withToken.status, path).toBe(plain.status);
      expect(withToken.headers.get('etag'), path).toBe(plain.headers.get('etag'));
      expect(await withToken.text(), path).toBe(await plain.text());
    }
    const garbageBearer = await fetch(`${site}/v1/trips`, { headers: { Authorization: 'Bearer nonsense' } });
    expect(garbageBearer.status).toBe(200);

    const credential = `${site}/agent/credential`;
    expect((await fetch(credential, { headers: { Authorization: `Bearer ${token.access_token}` } })).status).toBe(200);
    const anonymous = await fetch(credential);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${site}/.well-known/oauth-protected-resource"`,
    );

    const revoked = await fetch(
      as.revocation_endpoint,
      form({ token: token.access_token, token_type_hint: 'access_token' }),
    );
    expect(revoked.status).toBe(200);
    const after = await fetch(credential, { headers: { Authorization: `Bearer ${token.access_token}` } });
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain(
      `resource_metadata="${site}/.well-known/oauth-protected-resource"`,
    );

    const event = await fetch(as.agent_auth.events_endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/secevent+jwt' },
      body: await idp.securityEvent(),
    });
    expect(event.status).toBe(202);
    const refused = await fetch(
      as.token_endpoint,
      form({ grant_type: as.grant_types_supported[0], assertion: identity_assertion, resource: prm.resource }),
    );
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'invalid_grant', reason: 'registration_revoked' });
  });

  it('refuses bad requests with OAuth errors, never a 500', async () => {
    const replayed = await idp.idJag();
    expect(
      (
        await fetch(
          as.agent_auth.register_uri,
          json({
            type: 'identity_assertion',
            assertion_type: 'urn:ietf:params:oauth:token-type:id-jag',
            assertion: replayed,
          }),
        )
      ).status,
    ).toBe(200);
    const again = await fetch(
      as.agent_auth.register_uri,
      json({
        type: 'identity_assertion',
        assertion_type: 'urn:ietf:params:oauth:token-type:id-jag',
        assertion: replayed,
      }),
    );
    expect(await again.json()).toMatchObject({ error: 'invalid_grant', reason: 'replay_detected' });

    const checks: [string, RequestInit, number, string][] = [
      [
        as.agent_auth.identity_endpoint,
        { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: 'x'.repeat(64 * 1024) },
        413,
        'invalid_request',
      ],
      [
        as.agent_auth.identity_endpoint,
        { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"type": anonymous}' },
        400,
        'invalid_request',
      ],
      [
        as.agent_auth.identity_endpoint,
        { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'hello' },
        415,
        'invalid_request',
      ],
      [as.agent_auth.identity_endpoint, { method: 'GET' }, 405, 'invalid_request'],
      [as.token_endpoint, { method: 'GET' }, 405, 'invalid_request'],
      [as.token_endpoint, form({ grant_type: 'client_credentials' }), 400, 'unsupported_grant_type'],
      [as.token_endpoint, form({ grant_type: as.grant_types_supported[0], assertion: 'x.y.z' }), 400, 'invalid_grant'],
      [as.revocation_endpoint, form({}), 400, 'invalid_request'],
    ];
    for (const [url, init, status, error] of checks) {
      const res = await fetch(url, init);
      expect(res.status, `${init.method} ${url}`).toBe(status);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await res.json()).toMatchObject({ error, error_description: expect.any(String) });
    }
  });
});

describe('an anonymous agent, and a person who attaches it on the claim page', () => {
  async function registerAnonymous() {
    const res = await fetch(as.agent_auth.register_uri, json({ type: 'anonymous' }));
    expect(res.status).toBe(200);
    return res.json();
  }
  const poll = (claimToken: string) =>
    fetch(as.token_endpoint, form({ grant_type: as.grant_types_supported[1], claim_token: claimToken }));

  it('exchanges the anonymous identity_assertion at once, with no consent step', async () => {
    const registration = await registerAnonymous();
    expect(registration).toMatchObject({ registration_type: 'anonymous', status: 'active' });
    const exchange = await fetch(
      as.token_endpoint,
      form({
        grant_type: as.grant_types_supported[0],
        assertion: registration.identity_assertion,
        resource: prm.resource,
      }),
    );
    expect(exchange.status).toBe(200);
    const { access_token } = await exchange.json();
    expect(
      (await fetch(`${site}/agent/credential`, { headers: { Authorization: `Bearer ${access_token}` } })).status,
    ).toBe(200);
  });

  it('answers a poll before the code is typed with authorization_pending, and a poll too soon after it with slow_down and the longer interval', async () => {
    const registration = await registerAnonymous();
    expect(await (await poll(registration.claim.claim_token)).json()).toMatchObject({ error: 'authorization_pending' });
    // The interval doubles from 5 to 10 seconds (RFC 8628 §3.5); waiting it out is shown with a moved clock in flows.test.ts.
    expect(await (await poll(registration.claim.claim_token)).json()).toMatchObject({
      error: 'slow_down',
      interval: 10,
    });
  });

  it('shows the form, refuses a cross-origin or wrong code, confirms the right one, and the poll gets the token', async () => {
    // A registration of its own, not yet polled: the one poll after confirming is not too soon.
    const registration = await registerAnonymous();

    const page = await fetch(registration.claim.verification_uri_complete);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).toContain('<form method="post" action="/agent/claim"');
    expect(html).toContain(`value="${registration.claim.user_code}"`);

    const post = (code: string, headers: Record<string, string>) =>
      fetch(registration.claim.verification_uri, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
        body: `user_code=${encodeURIComponent(code)}`,
      });
    const crossSite = await post(registration.claim.user_code, { Origin: 'https://attacker.example' });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.text()).toContain('did not come from this page');
    expect((await post(registration.claim.user_code, {})).status).toBe(403);
    // A browser sends Origin with every POST: one without it is a program's, not the page's.
    expect((await post(registration.claim.user_code, { 'Sec-Fetch-Site': 'same-origin' })).status).toBe(403);
    expect((await post(registration.claim.user_code, { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    const wrong = await post('BCDF-GHJK', { Origin: site });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain('That code did not work');
    const ok = await post(registration.claim.user_code.toLowerCase(), { Origin: site });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('Done: the agent is confirmed');

    const done = await poll(registration.claim.claim_token);
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({
      token_type: 'Bearer',
      access_token: expect.any(String),
      identity_assertion: expect.any(String),
    });
  });

  it('works in a real browser', async () => {
    const { chromium } = await import('playwright-core');
    const registration = await registerAnonymous();
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage();
      const consoleErrors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
      await page.goto(registration.claim.verification_uri);
      await page.getByLabel('Code from your agent').fill(registration.claim.user_code.replace('-', ' ').toLowerCase());
      await page.getByRole('button', { name: 'Confirm this agent' }).click();
      await expect.poll(() => page.locator('h1').textContent()).toBe('Done: the agent is confirmed');
      expect(consoleErrors).toEqual([]);
    } finally {
      await browser.close();
    }
    const done = await poll(registration.claim.claim_token);
    expect(done.status).toBe(200);
  }, 60_000);
});

describe('deployments that switch it off or misconfigure it', () => {
  it('without anonymous registration and without storage: metadata says so, registration answers 503, /v1 is untouched', async () => {
    const off = await startInProcess(inject('fixtureSite'), {
      SITE_URL: '',
      AGENT_ANONYMOUS: 'off',
      OPERATIONAL_STORAGE: 'off',
    });
    try {
      const meta = await (await fetch(`${off.url}/.well-known/oauth-authorization-server`)).json();
      expect(meta.agent_auth.identity_types_supported).toEqual(['identity_assertion']);
      expect(meta.agent_auth.anonymous).toBeUndefined();
      const res = await fetch(`${off.url}/agent/auth`, json({ type: 'anonymous' }));
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ error: 'temporarily_unavailable' });
      expect((await fetch(`${off.url}/v1/trips`)).status).toBe(200);
    } finally {
      await off.stop();
    }
  }, 60_000);

  it('with an unreadable AGENT_TRUSTED_ISSUERS: agent routes answer 503 and say why in the log, the site keeps working', async () => {
    // A process of its own: the test reads what it logs.
    const bad = await startServer(inject('fixtureSite'), { SITE_URL: '', AGENT_TRUSTED_ISSUERS: 'not a pair' });
    try {
      for (const path of ['/.well-known/oauth-authorization-server', '/auth.md', '/.well-known/jwks.json']) {
        expect((await fetch(`${bad.url}${path}`)).status, path).toBe(503);
      }
      expect((await fetch(`${bad.url}/agent/identity`, json({ type: 'anonymous' }))).status).toBe(503);
      expect((await fetch(`${bad.url}/v1/`)).status).toBe(200);
      expect(bad.output()).toContain('AGENT_TRUSTED_ISSUERS');
    } finally {
      await bad.stop();
    }
  }, 60_000);
});
