/**
 * The agent-registration handlers around real parts: an embedded database of its own (a copy
 * of the run's new one: tests/helpers/embedded-template.ts), a fresh signing key, the test identity provider's JWK Set over HTTP, and a clock the test moves.
 */
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { TrustedIssuers } from '../../service/agent-auth/assertions.ts';
import { handleClaimRestart, confirmOnClaimPage } from '../../service/agent-auth/claim.ts';
import { handleCredential } from '../../service/agent-auth/credential.ts';
import { defaultClaimWindow, type AgentAuthDeps, type AgentAuthLimiters } from '../../service/agent-auth/deps.ts';
import { handleSecurityEvent } from '../../service/agent-auth/events.ts';
import { claimGrantType, jwtBearerGrant } from '../../service/agent-auth/metadata.ts';
import { handleRegistration } from '../../service/agent-auth/registration.ts';
import { AgentRegistry } from '../../service/agent-auth/registry.ts';
import { handleRevocation } from '../../service/agent-auth/revocation.ts';
import { ServiceTokens } from '../../service/agent-auth/service-tokens.ts';
import { createSigningKeys, generateSigningJwk, type SigningKeys } from '../../service/agent-auth/signing-keys.ts';
import { handleToken } from '../../service/agent-auth/token.ts';
import type { Sql } from '../../service/storage/sql.ts';
import { freshDatabase } from '../helpers/embedded-template.ts';
import type { IdentityProvider } from './identity-provider.ts';

export const siteUrl = 'https://catalogue.test';
const client = { clientIp: '203.0.113.7' };
const noLimits: AgentAuthLimiters = {
  registration: null,
  claimAttempt: null,
  token: null,
  credential: null,
  events: null,
};

export interface Harness {
  deps: AgentAuthDeps;
  keys: SigningKeys;
  sql: Sql;
  /** Moves the clock forward. */
  advance(seconds: number): void;
  register(body: unknown, init?: RequestInit): Promise<Response>;
  token(form: Record<string, string>): Promise<Response>;
  exchange(assertion: string): Promise<Response>;
  poll(claimToken: string): Promise<Response>;
  restartClaim(claimToken: string): ReturnType<typeof handleClaimRestart>;
  confirm(userCode: string, headers?: Record<string, string>): ReturnType<typeof confirmOnClaimPage>;
  revoke(token: string, hint?: string): Promise<Response>;
  credential(accessToken: string): Promise<Response>;
  event(token: string, contentType?: string): Promise<Response>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  anonymousEnabled?: boolean;
  limiters?: AgentAuthLimiters;
  trusted?: IdentityProvider[];
  /** Storage to use instead of a database of its own (left open on close). */
  sql?: Sql;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const sql = options.sql ?? (await freshDatabase());
  const keys = await createSigningKeys(await generateSigningJwk());
  let now = Date.now();
  const deps: AgentAuthDeps = {
    siteUrl,
    resourceName: 'Test Catalogue API',
    anonymousEnabled: options.anonymousEnabled ?? true,
    issuers: new TrustedIssuers((options.trusted ?? []).map((idp) => ({ issuer: idp.issuer, jwksUri: idp.jwksUri }))),
    registry: new AgentRegistry(sql),
    tokens: new ServiceTokens(keys, siteUrl),
    clock: () => now,
    limiters: options.limiters ?? noLimits,
    claimWindow: defaultClaimWindow,
  };
  const post = (path: string, body: BodyInit, type: string, headers: Record<string, string> = {}) =>
    new Request(`${siteUrl}${path}`, { method: 'POST', body, headers: { 'Content-Type': type, ...headers } });
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const token = (fields: Record<string, string>) =>
    handleToken(post('/oauth/token', form(fields), 'application/x-www-form-urlencoded'), deps, client);

  return {
    deps,
    keys,
    sql,
    advance: (seconds) => {
      now += seconds * 1000;
    },
    register: (body, init) =>
      handleRegistration(
        new Request(`${siteUrl}/agent/identity`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
          ...init,
        }),
        deps,
        client,
      ),
    token,
    exchange: (assertion) => token({ grant_type: jwtBearerGrant, assertion, resource: siteUrl }),
    poll: (claimToken) => token({ grant_type: claimGrantType(siteUrl), claim_token: claimToken }),
    restartClaim: (claimToken) =>
      handleClaimRestart(
        post('/agent/identity/claim', JSON.stringify({ claim_token: claimToken }), 'application/json'),
        deps,
        client,
      ),
    confirm: (userCode, headers = { Origin: siteUrl }) =>
      confirmOnClaimPage(
        post('/agent/claim', form({ user_code: userCode }), 'application/x-www-form-urlencoded', headers),
        deps,
        client,
      ),
    revoke: (tokenValue, hint) =>
      handleRevocation(
        post(
          '/oauth/revoke',
          form({ token: tokenValue, ...(hint ? { token_type_hint: hint } : {}) }),
          'application/x-www-form-urlencoded',
        ),
        deps,
        client,
      ),
    credential: (accessToken) =>
      handleCredential(
        new Request(`${siteUrl}/agent/credential`, { headers: { Authorization: `Bearer ${accessToken}` } }),
        deps,
        client,
      ),
    event: (tokenValue, contentType = 'application/secevent+jwt') =>
      handleSecurityEvent(post('/agent/event/notify', tokenValue, contentType), deps, client),
    close: () => (options.sql ? Promise.resolve() : sql.close()),
  };
}

export function header(token: string) {
  return decodeProtectedHeader(token);
}

export function claims(token: string) {
  return decodeJwt(token);
}
