/**
 * A test identity provider: its own ES256 key pair, its JWK Set served by a real HTTP server
 * on 127.0.0.1, and helpers that mint ID-JAGs and security event tokens, correct or not.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';

export interface IdentityProvider {
  issuer: string;
  /** The `aud` its tokens carry (the site's resource); settable once the site is known. */
  audience: string;
  jwksUri: string;
  kid: string;
  publicJwk: JWK;
  /** PEM of the public key: what an HMAC confusion attack would use as its secret. */
  publicPem: string;
  /** AGENT_TRUSTED_ISSUERS value trusting this provider. */
  trustSetting: string;
  /** How many times the key set was fetched. */
  jwksFetches(): number;
  idJag(options?: MintOptions): Promise<string>;
  securityEvent(options?: MintOptions): Promise<string>;
  stop(): Promise<void>;
}

interface MintOptions {
  claims?: JWTPayload;
  /** Claims to leave out entirely. */
  omit?: string[];
  header?: Record<string, unknown>;
  /** Seconds since the epoch the token is dated at (default: now). */
  now?: number;
  lifetimeSeconds?: number;
}

export async function startIdentityProvider(audience: string): Promise<IdentityProvider> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = `test-${randomUUID().slice(0, 8)}`;
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  const publicPem = await exportSPKI(publicKey);
  let fetches = 0;
  const server: Server = createServer((req, res) => {
    if (req.url === '/jwks.json') {
      fetches += 1;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ keys: [publicJwk] }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const issuer = `http://127.0.0.1:${port}`;
  const jwksUri = `${issuer}/jwks.json`;

  async function mint(typ: string, base: JWTPayload, options: MintOptions): Promise<string> {
    const now = options.now ?? Math.floor(Date.now() / 1000);
    const payload: JWTPayload = {
      ...base,
      iat: now,
      exp: now + (options.lifetimeSeconds ?? 300),
      jti: randomUUID(),
      ...options.claims,
    };
    for (const claim of options.omit ?? []) delete payload[claim];
    return new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid, typ, ...options.header }).sign(privateKey);
  }

  const provider: IdentityProvider = {
    issuer,
    audience,
    jwksUri,
    kid,
    publicJwk,
    publicPem,
    trustSetting: `${issuer}=${jwksUri}`,
    jwksFetches: () => fetches,
    idJag: (options = {}) =>
      mint(
        'oauth-id-jag+jwt',
        { iss: issuer, sub: 'user-1', aud: provider.audience, client_id: 'agent-client-1' },
        options,
      ),
    securityEvent: (options = {}) =>
      mint(
        'secevent+jwt',
        {
          iss: issuer,
          aud: provider.audience,
          events: {
            'https://schemas.openid.net/secevent/caep/event-type/session-revoked': {
              subject: { format: 'iss_sub', iss: issuer, sub: 'user-1' },
            },
          },
        },
        options,
      ),
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return provider;
}
