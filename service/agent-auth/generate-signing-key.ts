/**
 * Prints a new ES256 private JWK for AGENT_SIGNING_KEY (one line, kid = its thumbprint).
 *   node service/agent-auth/generate-signing-key.ts
 * Rotation is described in docs/agent-auth.md.
 */
import { generateSigningJwk } from './signing-keys.ts';

const jwk = await generateSigningJwk();
process.stdout.write(`${JSON.stringify(jwk)}\n`);
process.stderr.write(`New signing key ${jwk.kid}: set it as AGENT_SIGNING_KEY; keep it secret.\n`);
