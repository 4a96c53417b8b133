/** AGENT_* settings, signing keys (configured, generated once, rotated) and the published metadata. */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { decodeProtectedHeader, exportJWK, generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import { parseTrustedIssuers, readAgentAuthSettings, SettingsError } from '../../service/config.ts';
import { renderAuthMd } from '../../service/agent-auth/auth-md.ts';
import {
  handleAuthorizationServerMetadata,
  handleMcpProtectedResourceMetadata,
} from '../../service/agent-auth/discovery.ts';
import {
  authorizationServerMetadata,
  claimGrantType,
  protectedResourceMetadata,
} from '../../service/agent-auth/metadata.ts';
import { ServiceTokens } from '../../service/agent-auth/service-tokens.ts';
import { generateSigningJwk, loadSigningKeys } from '../../service/agent-auth/signing-keys.ts';
import type { Registration } from '../../service/agent-auth/registry.ts';

const site = 'https://catalogue.test';
const registration: Registration = {
  id: 'reg_1',
  kind: 'anonymous',
  status: 'active',
  issuer: null,
  subject: null,
  clientId: null,
  createdAt: new Date(),
};

describe('AGENT_* settings', () => {
  it('reads trusted issuers as a JSON object or as issuer=jwks pairs', () => {
    const expected = [
      { issuer: 'https://idp.example', jwksUri: 'https://idp.example/jwks.json' },
      { issuer: 'https://other.example/tenant', jwksUri: 'https://other.example/keys?x=1' },
    ];
    expect(
      parseTrustedIssuers(
        JSON.stringify({
          'https://idp.example': 'https://idp.example/jwks.json',
          'https://other.example/tenant': 'https://other.example/keys?x=1',
        }),
        site,
      ),
    ).toEqual(expected);
    expect(
      parseTrustedIssuers(
        'https://idp.example=https://idp.example/jwks.json, https://other.example/tenant=https://other.example/keys?x=1',
        site,
      ),
    ).toEqual(expected);
    expect(parseTrustedIssuers('http://127.0.0.1:9=http://127.0.0.1:9/jwks.json', site)).toHaveLength(1);
    expect(parseTrustedIssuers(undefined, site)).toEqual([]);
  });

  it('refuses plain-HTTP key sets off loopback, the site itself, duplicates and nonsense, naming the setting', () => {
    for (const value of [
      'https://idp.example=http://idp.example/jwks.json',
      `${site}=https://catalogue.test/jwks.json`,
      'a=https://x.example/1,a=https://x.example/2',
      'not a pair',
      '{"https://idp.example": 5}',
      '{oops',
    ]) {
      expect(() => parseTrustedIssuers(value, site), value).toThrow(SettingsError);
      expect(() => parseTrustedIssuers(value, site), value).toThrow(/AGENT_TRUSTED_ISSUERS/);
    }
  });

  it('turns anonymous registration on by default and off with AGENT_ANONYMOUS=off', () => {
    expect(readAgentAuthSettings(site, {}).anonymousEnabled).toBe(true);
    expect(readAgentAuthSettings(site, { AGENT_ANONYMOUS: 'OFF' }).anonymousEnabled).toBe(false);
    expect(() => readAgentAuthSettings(site, { AGENT_ANONYMOUS: 'maybe' })).toThrow(/AGENT_ANONYMOUS/);
  });
});

describe('signing keys', () => {
  it('generates one key under DATA_DIR on first use (owner-only) and reuses it', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'agent-keys-'));
    try {
      const first = await loadSigningKeys({
        signingKey: null,
        previousKeys: null,
        dataDir,
        requireConfiguredKey: false,
      });
      const second = await loadSigningKeys({
        signingKey: null,
        previousKeys: null,
        dataDir,
        requireConfiguredKey: false,
      });
      expect(second.currentKid).toBe(first.currentKid);
      const file = path.join(dataDir, 'agent-signing-key.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(file, 'utf8')).d).toEqual(expect.any(String));
      expect(first.jwks.keys[0]).not.toHaveProperty('d');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('requires AGENT_SIGNING_KEY on Vercel, and refuses public, symmetric or weak keys', async () => {
    const base = { previousKeys: null, dataDir: '/nonexistent', requireConfiguredKey: true };
    await expect(loadSigningKeys({ ...base, signingKey: null })).rejects.toThrow(
      /AGENT_SIGNING_KEY: required when DEPLOY_TARGET=vercel/,
    );
    const { d: _d, ...publicOnly } = await generateSigningJwk();
    await expect(loadSigningKeys({ ...base, signingKey: JSON.stringify(publicOnly) })).rejects.toThrow(/private JWK/);
    await expect(
      loadSigningKeys({ ...base, signingKey: JSON.stringify({ kty: 'oct', k: 'c2VjcmV0', alg: 'HS256' }) }),
    ).rejects.toThrow(/EC P-256/);
    // jose refuses to make a key this weak, so node:crypto makes it.
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 });
    await expect(
      loadSigningKeys({ ...base, signingKey: JSON.stringify(await exportJWK(weak.privateKey)) }),
    ).rejects.toThrow(/2048/);
    await expect(loadSigningKeys({ ...base, signingKey: '{not json' })).rejects.toThrow(
      /AGENT_SIGNING_KEY: is not valid JSON/,
    );
  });

  it('signs with Ed25519 or RSA keys from the setting too', async () => {
    for (const alg of ['EdDSA', 'RS256'] as const) {
      const pair = await generateKeyPair(alg, { extractable: true, ...(alg === 'EdDSA' ? { crv: 'Ed25519' } : {}) });
      const keys = await loadSigningKeys({
        signingKey: JSON.stringify(await exportJWK(pair.privateKey)),
        previousKeys: null,
        dataDir: '/nonexistent',
        requireConfiguredKey: true,
      });
      const tokens = new ServiceTokens(keys, site);
      const issued = await tokens.accessToken(registration, Date.now());
      expect(decodeProtectedHeader(issued.token).alg).toBe(alg);
      expect((await tokens.verifyAccessToken(issued.token, Date.now())).registrationId).toBe('reg_1');
    }
  });

  it('rotates: the new key signs, the previous one is published and still verifies what it signed', async () => {
    const oldJwk = await generateSigningJwk();
    const newJwk = await generateSigningJwk();
    const before = await loadSigningKeys({
      signingKey: JSON.stringify(oldJwk),
      previousKeys: null,
      dataDir: '/nonexistent',
      requireConfiguredKey: true,
    });
    const outstanding = await new ServiceTokens(before, site).identityAssertion(registration, Date.now());

    const { d: _d, ...oldPublic } = oldJwk;
    const after = await loadSigningKeys({
      signingKey: JSON.stringify(newJwk),
      previousKeys: JSON.stringify([oldPublic]),
      dataDir: '/nonexistent',
      requireConfiguredKey: true,
    });
    expect(after.jwks.keys.map((k) => k.kid)).toEqual([newJwk.kid, oldJwk.kid]);
    expect(after.jwks.keys.every((k) => !('d' in k))).toBe(true);
    const tokens = new ServiceTokens(after, site);
    expect(await tokens.verifyIdentityAssertion(outstanding.token, Date.now())).toBe('reg_1');
    const fresh = await tokens.identityAssertion(registration, Date.now());
    expect(decodeProtectedHeader(fresh.token).kid).toBe(newJwk.kid);

    // Once the old key is dropped from AGENT_SIGNING_KEYS_PREVIOUS, what it signed stops verifying.
    const later = new ServiceTokens(
      await loadSigningKeys({
        signingKey: JSON.stringify(newJwk),
        previousKeys: null,
        dataDir: '/nonexistent',
        requireConfiguredKey: true,
      }),
      site,
    );
    await expect(later.verifyIdentityAssertion(outstanding.token, Date.now())).rejects.toThrow();
  });
});

describe('metadata', () => {
  const input = {
    siteUrl: site,
    resourceName: 'Catalogue API',
    anonymousEnabled: true,
    trustedIssuers: ['https://idp.example'],
  };

  it('keeps the issuer equal to the first authorization server, with every agent_auth member and no service_auth', () => {
    const prm = protectedResourceMetadata(input);
    const as = authorizationServerMetadata(input);
    expect(as.issuer).toBe(prm.authorization_servers[0]);
    expect(Object.keys(as.agent_auth).sort()).toEqual(
      [
        'anonymous',
        'claim_endpoint',
        'claim_uri',
        'events_endpoint',
        'events_supported',
        'identity_assertion',
        'identity_endpoint',
        'identity_types_supported',
        'register_uri',
        'revocation_uri',
        'skill',
      ].sort(),
    );
    expect(JSON.stringify(as)).not.toContain('service_auth');
  });

  it('derives a neutral claim grant URN from the host', () => {
    expect(claimGrantType('https://www.theverticaltribe.com')).toBe(
      'urn:theverticaltribe-com:agent-auth:grant-type:claim',
    );
    expect(claimGrantType('http://127.0.0.1:4321')).toBe('urn:127-0-0-1:agent-auth:grant-type:claim');
    expect(claimGrantType('https://a.b')).toBe('urn:a-b:agent-auth:grant-type:claim');
    expect(claimGrantType(`https://${'x'.repeat(40)}.example`)).toMatch(/^urn:x{32}:agent-auth/);
  });

  it('writes auth.md with an H1 naming auth.md and every endpoint', () => {
    const md = renderAuthMd(input);
    expect(md.split('\n')[0]).toBe('# auth.md: agent registration for Catalogue API');
    const as = authorizationServerMetadata(input);
    for (const url of [
      as.token_endpoint,
      as.revocation_endpoint,
      as.agent_auth.register_uri,
      as.agent_auth.identity_endpoint,
      as.agent_auth.claim_endpoint,
      as.agent_auth.events_endpoint,
      as.authorization_endpoint,
    ]) {
      expect(md).toContain(url);
    }
    expect(renderAuthMd({ ...input, anonymousEnabled: false })).toContain('anonymous_not_enabled');
  });

  it('describes the MCP endpoint as its own resource at the path-aware location (RFC 9728 §3.1)', async () => {
    const res = handleMcpProtectedResourceMetadata(
      new Request(`${site}/.well-known/oauth-protected-resource/mcp`),
      input,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // The resource is the URL the metadata was fetched for, less the well-known part.
    expect(await res.json()).toEqual({ ...protectedResourceMetadata(input), resource: `${site}/mcp` });
  });

  it('keeps openid-configuration as the alias of the RFC 8414 metadata, not OpenID Connect discovery, and says why', async () => {
    const res = handleAuthorizationServerMetadata(new Request(`${site}/.well-known/openid-configuration`), input);
    const doc = (await res.json()) as Record<string, unknown>;
    expect(doc).toEqual(JSON.parse(JSON.stringify(authorizationServerMetadata(input))));
    // OpenID Connect Discovery 1.0 §3 requires these of a provider; this site is none, and claims none of it.
    for (const member of ['subject_types_supported', 'id_token_signing_alg_values_supported', 'userinfo_endpoint'])
      expect(doc, member).not.toHaveProperty(member);
    expect(JSON.stringify(doc.scopes_supported ?? [])).not.toContain('openid');
    expect(doc.response_types_supported).toEqual(['none']);
    // It names the RFC 8414 address as canonical; that address itself names none.
    expect(res.headers.get('link')).toBe(`<${site}/.well-known/oauth-authorization-server>; rel="canonical"`);
    expect(
      handleAuthorizationServerMetadata(
        new Request(`${site}/.well-known/oauth-authorization-server`),
        input,
      ).headers.get('link'),
    ).toBeNull();
    const md = renderAuthMd(input);
    expect(md).toContain(`${site}/.well-known/openid-configuration`);
    expect(md).toContain('publishes no OpenID Connect discovery');
    expect(md).toContain("it is OAuth metadata (RFC 8414), not an OpenID Provider's");
    expect(md).toContain('`subject_types_supported` and `id_token_signing_alg_values_supported` are absent on purpose');
    expect(md).toContain(`${site}/.well-known/oauth-protected-resource/mcp`);
  });

  it('tells agents that anonymous registration has no consent step and its claim is optional', () => {
    const md = renderAuthMd(input);
    expect(md).toContain('use `anonymous`. No consent step');
    expect(md).toContain('exchanges for an access token at once');
    expect(md).toContain('## Step 4: Claim (required when `status` is `pending`; optional for anonymous)');
    expect(md).not.toMatch(/anonymous`?\. A person confirms/);
  });
});
