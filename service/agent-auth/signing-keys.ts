/**
 * The site's signing keys for the tokens it issues (identity assertions and access tokens).
 * In production the private key comes from AGENT_SIGNING_KEY; locally one is generated once and
 * kept under DATA_DIR, so restarts keep earlier tokens valid. Retired keys
 * (AGENT_SIGNING_KEYS_PREVIOUS) are published and accepted but never sign. See docs/agent-auth.md.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  SignJWT,
  type JWK,
  type JWTPayload,
} from 'jose';
import { SettingsError } from '../config.ts';

/** Asymmetric algorithms only: a shared secret could never be published at jwks_uri. */
const signingAlgorithms = ['ES256', 'EdDSA', 'RS256'] as const;
type SigningAlgorithm = (typeof signingAlgorithms)[number];

export interface SigningKeys {
  /** The public JWK Set published at jwks_uri: the current key first, then retired ones. */
  readonly jwks: { keys: JWK[] };
  readonly currentKid: string;
  /** Signs `claims` with the current key; sets iat, exp and a fresh jti. */
  sign(claims: JWTPayload, options: { typ: string; lifetimeSeconds: number; nowMs: number }): Promise<string>;
  /** Verifies a token this site signed (any published key); throws jose's errors. */
  verify(
    token: string,
    options: { typ: string; issuer: string; audience: string | string[]; nowMs: number },
  ): Promise<JWTPayload>;
}

const publicMembers: Record<string, string[]> = {
  EC: ['kty', 'crv', 'x', 'y'],
  OKP: ['kty', 'crv', 'x'],
  RSA: ['kty', 'n', 'e'],
};

function algorithmOf(jwk: JWK): SigningAlgorithm | null {
  if (jwk.alg) return (signingAlgorithms as readonly string[]).includes(jwk.alg) ? (jwk.alg as SigningAlgorithm) : null;
  if (jwk.kty === 'EC' && jwk.crv === 'P-256') return 'ES256';
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return 'EdDSA';
  if (jwk.kty === 'RSA') return 'RS256';
  return null;
}

async function publicJwk(jwk: JWK, setting: string): Promise<JWK & { kid: string; alg: SigningAlgorithm }> {
  const alg = algorithmOf(jwk);
  const members = publicMembers[jwk.kty ?? ''];
  if (!alg || !members)
    throw new SettingsError(
      `Invalid settings:\n- ${setting}: keys must be EC P-256 (ES256), Ed25519 (EdDSA) or RSA (RS256)`,
    );
  if (jwk.kty === 'RSA' && (jwk.n?.length ?? 0) < 342)
    throw new SettingsError(`Invalid settings:\n- ${setting}: RSA keys must be at least 2048 bits`);
  const picked = Object.fromEntries(members.map((m) => [m, (jwk as Record<string, unknown>)[m]])) as JWK;
  const kid = jwk.kid ?? (await calculateJwkThumbprint(picked));
  return { ...picked, kid, alg, use: 'sig' };
}

function parseJson(text: string, setting: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new SettingsError(`Invalid settings:\n- ${setting}: is not valid JSON`);
  }
}

/** A JWK, an array of JWKs, or a JWK Set. */
function jwkList(value: unknown, setting: string): JWK[] {
  const list = Array.isArray(value)
    ? value
    : value && typeof value === 'object' && 'keys' in value
      ? value.keys
      : [value];
  if (!Array.isArray(list) || list.some((k) => !k || typeof k !== 'object')) {
    throw new SettingsError(`Invalid settings:\n- ${setting}: must be a JWK, an array of JWKs or a JWK Set`);
  }
  return list as JWK[];
}

export async function createSigningKeys(privateJwk: JWK, previous: JWK[] = []): Promise<SigningKeys> {
  const current = await publicJwk(privateJwk, 'AGENT_SIGNING_KEY');
  if (typeof privateJwk.d !== 'string')
    throw new SettingsError('Invalid settings:\n- AGENT_SIGNING_KEY: must be a private JWK (with "d")');
  const retired = await Promise.all(previous.map((k) => publicJwk(k, 'AGENT_SIGNING_KEYS_PREVIOUS')));
  const keys = [current, ...retired.filter((k) => k.kid !== current.kid)];
  if (new Set(keys.map((k) => k.kid)).size !== keys.length)
    throw new SettingsError('Invalid settings:\n- AGENT_SIGNING_KEYS_PREVIOUS: two keys share a kid');
  const privateKey = await importJWK({ ...privateJwk, alg: current.alg }, current.alg);
  const keySet = createLocalJWKSet({ keys });
  const algorithms = [...new Set(keys.map((k) => k.alg))];

  return {
    jwks: { keys },
    currentKid: current.kid,
    async sign(claims, { typ, lifetimeSeconds, nowMs }) {
      const now = Math.floor(nowMs / 1000);
      return new SignJWT(claims)
        .setProtectedHeader({ alg: current.alg, kid: current.kid, typ })
        .setIssuedAt(now)
        .setExpirationTime(now + lifetimeSeconds)
        .setJti(randomUUID())
        .sign(privateKey);
    },
    async verify(token, { typ, issuer, audience, nowMs }) {
      const { payload } = await jwtVerify(token, keySet, {
        algorithms,
        typ,
        issuer,
        audience,
        requiredClaims: ['sub', 'jti', 'iat', 'exp'],
        currentDate: new Date(nowMs),
        clockTolerance: 5,
      });
      return payload;
    },
  };
}

/** Generates an ES256 private JWK with its thumbprint as kid. */
export async function generateSigningJwk(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint({
    kty: jwk.kty ?? 'EC',
    crv: jwk.crv ?? '',
    x: jwk.x ?? '',
    y: jwk.y ?? '',
  });
  return { ...jwk, kid, alg: 'ES256', use: 'sig' };
}

/** The local key: created once (exclusive create, so two processes agree), then reused. */
async function localSigningJwk(dataDir: string): Promise<JWK> {
  const file = path.resolve(dataDir, 'agent-signing-key.json');
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as JWK;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const jwk = await generateSigningJwk();
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, `${JSON.stringify(jwk, null, 2)}\n`, { flag: 'wx', mode: 0o600 });
    return jwk;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return JSON.parse(readFileSync(file, 'utf8')) as JWK;
    throw error;
  }
}

export interface KeySource {
  signingKey: string | null;
  previousKeys: string | null;
  dataDir: string;
  /** On Vercel every instance would generate its own key, so the setting is required there. */
  requireConfiguredKey: boolean;
}

export async function loadSigningKeys(source: KeySource): Promise<SigningKeys> {
  const previous = source.previousKeys
    ? jwkList(parseJson(source.previousKeys, 'AGENT_SIGNING_KEYS_PREVIOUS'), 'AGENT_SIGNING_KEYS_PREVIOUS')
    : [];
  if (source.signingKey) {
    const [key] = jwkList(parseJson(source.signingKey, 'AGENT_SIGNING_KEY'), 'AGENT_SIGNING_KEY');
    if (!key) throw new SettingsError('Invalid settings:\n- AGENT_SIGNING_KEY: holds no key');
    return createSigningKeys(key, previous);
  }
  if (source.requireConfiguredKey) {
    throw new SettingsError(
      'Invalid settings:\n- AGENT_SIGNING_KEY: required when DEPLOY_TARGET=vercel (instances cannot share a generated key)',
    );
  }
  return createSigningKeys(await localSigningJwk(source.dataDir), previous);
}
