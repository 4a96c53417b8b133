/**
 * The agent-registration settings (AGENT_*), read from the same environment as service/config.ts.
 * Every name is documented in .env.example, the README and docs/agent-auth.md; a bad value is
 * reported as one sentence naming the setting.
 */
import { SettingsError } from '../config.ts';

export interface TrustedIssuer {
  /** The `iss` value an identity provider puts in its assertions. */
  issuer: string;
  /** Where its public keys are published (a JWK Set). */
  jwksUri: string;
}

export interface AgentAuthSettings {
  /** AGENT_ANONYMOUS: anonymous registration (with a person's confirmation) is accepted. */
  anonymousEnabled: boolean;
  /** AGENT_TRUSTED_ISSUERS: identity providers whose ID-JAGs and security events are accepted. */
  trustedIssuers: TrustedIssuer[];
  /** AGENT_SIGNING_KEY: the private JWK that signs, or null to generate one under DATA_DIR. */
  signingKey: string | null;
  /** AGENT_SIGNING_KEYS_PREVIOUS: retired keys, still published and accepted, never used to sign. */
  previousKeys: string | null;
}

function fail(name: string, message: string): never {
  throw new SettingsError(`Invalid settings:\n- ${name}: ${message}`);
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
}

function checkedIssuer(issuer: string, jwksUri: string, siteUrl: string): TrustedIssuer {
  const name = 'AGENT_TRUSTED_ISSUERS';
  if (!issuer) fail(name, 'an issuer is empty');
  if (issuer.replace(/\/+$/, '') === siteUrl) fail(name, 'this site cannot trust itself as an identity provider');
  let url: URL;
  try {
    url = new URL(jwksUri);
  } catch {
    return fail(name, `the key set address of ${issuer} is not a URL`);
  }
  // Keys fetched over plain HTTP could be swapped in transit; only loopback (tests, local IdPs) may skip TLS.
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
    fail(name, `the key set address of ${issuer} must use https`);
  }
  return { issuer, jwksUri: url.href };
}

/**
 * AGENT_TRUSTED_ISSUERS accepts either a JSON object `{"<issuer>": "<jwks url>"}` or a list of
 * `<issuer>=<jwks url>` pairs separated by commas or whitespace.
 */
export function parseTrustedIssuers(value: string | undefined, siteUrl: string): TrustedIssuer[] {
  const text = value?.trim() ?? '';
  if (!text) return [];
  let pairs: [string, string][];
  if (text.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return fail('AGENT_TRUSTED_ISSUERS', 'is not valid JSON');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) fail('AGENT_TRUSTED_ISSUERS', 'must be a JSON object of issuer to key set address');
    pairs = Object.entries(parsed).map(([issuer, jwks]) => {
      if (typeof jwks !== 'string') fail('AGENT_TRUSTED_ISSUERS', `the key set address of ${issuer} must be a string`);
      return [issuer, jwks];
    });
  } else {
    pairs = text
      .split(/[\s,]+/)
      .filter(Boolean)
      .map((pair) => {
        const match = /^(.+?)=(https?:\/\/.+)$/.exec(pair);
        if (!match?.[1] || !match[2]) return fail('AGENT_TRUSTED_ISSUERS', `"${pair}" is not of the form <issuer>=<jwks url>`);
        return [match[1], match[2]];
      });
  }
  const issuers = pairs.map(([issuer, jwks]) => checkedIssuer(issuer, jwks, siteUrl));
  if (new Set(issuers.map((i) => i.issuer)).size !== issuers.length) fail('AGENT_TRUSTED_ISSUERS', 'lists an issuer twice');
  return issuers;
}

export function readAgentAuthSettings(siteUrl: string, source: Record<string, string | undefined> = process.env): AgentAuthSettings {
  const anonymous = (source.AGENT_ANONYMOUS ?? '').trim().toLowerCase() || 'on';
  if (anonymous !== 'on' && anonymous !== 'off') fail('AGENT_ANONYMOUS', 'must be on or off');
  return {
    anonymousEnabled: anonymous === 'on',
    trustedIssuers: parseTrustedIssuers(source.AGENT_TRUSTED_ISSUERS, siteUrl),
    signingKey: source.AGENT_SIGNING_KEY?.trim() || null,
    previousKeys: source.AGENT_SIGNING_KEYS_PREVIOUS?.trim() || null,
  };
}
