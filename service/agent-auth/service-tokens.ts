/**
 * The two tokens this site signs. The identity assertion (typ oauth-id-jag+jwt) is what a
 * registration returns and what the agent exchanges at the token endpoint, again and again
 * while it lives; the access token (typ at+jwt, RFC 9068) is what it sends as a Bearer. The
 * `typ` keeps each one out of the other's place.
 */
import type { JWTPayload } from 'jose';
import { lifetimes, publicReadScope, tokenTypes } from './metadata.ts';
import type { Registration } from './registry.ts';
import type { SigningKeys } from './signing-keys.ts';

export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

export interface AccessTokenClaims {
  registrationId: string;
  jti: string;
  scope: string;
  expiresAt: Date;
}

export class ServiceTokens {
  readonly #keys: SigningKeys;
  readonly #issuer: string;

  /** `siteUrl` is both the issuer and the resource. */
  constructor(keys: SigningKeys, siteUrl: string) {
    this.#keys = keys;
    this.#issuer = siteUrl;
  }

  /** Signs a token for a registration: our issuer and audience, the one scope, a fixed lifetime. */
  async #issue(
    registration: Registration,
    typ: string,
    lifetimeSeconds: number,
    nowMs: number,
    extra: JWTPayload = {},
  ): Promise<IssuedToken> {
    const claims: JWTPayload = {
      iss: this.#issuer,
      sub: registration.id,
      aud: this.#issuer,
      client_id: registration.id,
      ...extra,
      scope: publicReadScope,
    };
    const token = await this.#keys.sign(claims, { typ, lifetimeSeconds, nowMs });
    return { token, expiresAt: new Date(Math.floor(nowMs / 1000) * 1000 + lifetimeSeconds * 1000) };
  }

  identityAssertion(registration: Registration, nowMs: number): Promise<IssuedToken> {
    return this.#issue(registration, tokenTypes.idJag, lifetimes.identityAssertionSeconds, nowMs, {
      registration_type: registration.kind,
    });
  }

  /** The registration id of one of our identity assertions; throws jose's errors otherwise. */
  async verifyIdentityAssertion(token: string, nowMs: number): Promise<string> {
    const payload = await this.#keys.verify(token, {
      typ: tokenTypes.idJag,
      issuer: this.#issuer,
      audience: this.#issuer,
      nowMs,
    });
    return payload.sub ?? '';
  }

  accessToken(registration: Registration, nowMs: number): Promise<IssuedToken> {
    return this.#issue(registration, tokenTypes.accessToken, lifetimes.accessTokenSeconds, nowMs);
  }

  async verifyAccessToken(token: string, nowMs: number): Promise<AccessTokenClaims> {
    const payload = await this.#keys.verify(token, {
      typ: tokenTypes.accessToken,
      issuer: this.#issuer,
      audience: this.#issuer,
      nowMs,
    });
    return {
      registrationId: payload.sub ?? '',
      jti: payload.jti ?? '',
      scope: typeof payload.scope === 'string' ? payload.scope : '',
      expiresAt: new Date((payload.exp ?? 0) * 1000),
    };
  }
}
