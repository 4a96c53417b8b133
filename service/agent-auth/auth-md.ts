/**
 * /auth.md: the registration flow, step by step, for an agent. Written from the same values
 * as the metadata documents, so the instructions cannot drift from what the endpoints do: the
 * values are worked out once (`authMdValues`), and each section of the document is a function
 * of them, in the order an agent follows.
 */
import { agentAuthLimits } from './deps.ts';
import {
  agentAuthPaths,
  authorizationServerMetadata,
  claimGrantType,
  idJagAssertionType,
  jwtBearerGrant,
  lifetimes,
  protectedResourceMetadata,
  publicReadScope,
  revocationEvents,
  type MetadataInput,
} from './metadata.ts';

const minutes = (seconds: number) => `${Math.round(seconds / 60)} minutes`;

/** What the document names: the metadata, this site's addresses, the claim grant and the trusted identity providers. */
function authMdValues(input: MetadataInput) {
  return {
    input,
    prm: protectedResourceMetadata(input),
    as: authorizationServerMetadata(input),
    at: (p: string) => `${input.siteUrl}${p}`,
    claimGrant: claimGrantType(input.siteUrl),
    issuers:
      input.trustedIssuers.length > 0
        ? input.trustedIssuers.map((i) => `\`${i}\``).join(', ')
        : 'none configured at the moment',
  };
}

type AuthMdValues = ReturnType<typeof authMdValues>;

/** The methods, numbered, as this deployment's settings allow them. */
function methods(input: MetadataInput, issuers: string): string[] {
  return [
    `1. **You can get an ID-JAG for the user from a trusted identity provider** (${issuers}): use \`identity_assertion\` with \`${idJagAssertionType}\`. No person needs to confirm here.`,
    "2. **You only have the user's email address**: use `identity_assertion` with `verified_email`. A person confirms on this site's claim page (no email is sent).",
    input.anonymousEnabled
      ? "3. **You have neither**: use `anonymous`. No consent step: the answer's `identity_assertion` exchanges for an access token at once. Its `claim` block is optional: a person may attach the registration later."
      : '3. Anonymous registration is switched off here (`anonymous_not_enabled`).',
  ];
}

/** What /auth.md is for, and that the public API needs none of it. */
function intro({ input }: AuthMdValues): string {
  return `# auth.md: agent registration for ${input.resourceName}

You are an agent. **The public API at \`${input.siteUrl}/v1\` needs no registration, token or key**:
every response is the same with or without \`Authorization\`. Register only if you want a
scoped credential (\`${publicReadScope}\`) for this site. Registration creates a record, so
scanners and crawlers must not POST to these endpoints.

Follow the steps in order.
`;
}

/** Step 1: the metadata documents and what to read in them. */
function discover({ prm, as, at }: AuthMdValues): string {
  return `## Step 1: Discover

Fetch the protected resource metadata, then the authorization server metadata it names:

\`\`\`http
GET ${at(agentAuthPaths.protectedResource)}
GET ${at(agentAuthPaths.authorizationServer)}
\`\`\`

- \`resource\` is \`${prm.resource}\`: the audience (\`aud\`) of any assertion you mint, and the \`resource\` you exchange for.
- \`resource_name\` is "${prm.resource_name}"; the only scope is \`${publicReadScope}\`, sent as a header Bearer token.
- \`issuer\` is \`${as.issuer}\`; \`token_endpoint\` is \`${as.token_endpoint}\`; \`revocation_endpoint\` is \`${as.revocation_endpoint}\`; keys are at \`${as.jwks_uri}\`.
- This site is not an OpenID Provider: it issues no ID tokens and publishes no OpenID Connect discovery.
  \`${at(agentAuthPaths.openidConfiguration)}\` answers with the same document as the one above, whose
  address it names as canonical: it is OAuth metadata (RFC 8414), not an OpenID Provider's, so
  \`subject_types_supported\` and \`id_token_signing_alg_values_supported\` are absent on purpose and an
  OpenID Connect client rightly refuses it. Use \`${at(agentAuthPaths.authorizationServer)}\`.
- The MCP endpoint \`${at(agentAuthPaths.mcp)}\` has its own protected resource metadata (RFC 9728 §3.1) at
  \`${at(agentAuthPaths.protectedResourceMcp)}\`; like \`/v1\` it needs no token, and a token for this site covers it.
- The \`agent_auth\` block lists the registration endpoint (\`register_uri\` and \`identity_endpoint\`), the claim endpoint (\`claim_uri\` and \`claim_endpoint\`), \`revocation_uri\`, \`events_endpoint\`, the methods (\`identity_types_supported\`) and the trusted identity providers (\`identity_assertion.trusted_issuers\`).
`;
}

/** Step 2: the registration methods this deployment accepts. */
function pickMethod({ input, issuers }: AuthMdValues): string {
  return `## Step 2: Pick a method

${methods(input, issuers).join('\n')}

Check your choice against \`agent_auth.identity_types_supported\` and
\`agent_auth.identity_assertion.assertion_types_supported\` before you send anything.
`;
}

/** Step 3: the registration requests and their answer. */
function register({ input, prm, as, at }: AuthMdValues): string {
  return `## Step 3: Register

Before sending an identity assertion, tell the user that you are registering with
"${input.resourceName}" for the \`${publicReadScope}\` scope, and get their agreement.

### With an ID-JAG

Mint it with header \`typ: oauth-id-jag+jwt\` (an asymmetric algorithm: RS256, PS256, ES256,
ES384 or EdDSA) and claims \`iss\` (your provider, trusted here), \`sub\`, \`aud\` = \`${prm.resource}\`,
\`client_id\`, a fresh \`jti\` (each is accepted once), \`iat\` and an \`exp\` a few minutes ahead
(at most ${minutes(lifetimes.idJagMaxLifetimeSeconds)} after \`iat\`, and used within ${minutes(lifetimes.idJagMaxAgeSeconds)}).

\`\`\`http
POST ${at(agentAuthPaths.identity)}
Content-Type: application/json

{"type": "identity_assertion", "assertion_type": "${idJagAssertionType}", "assertion": "<ID-JAG>"}
\`\`\`

### With an email address, or anonymously

\`\`\`http
POST ${at(agentAuthPaths.identity)}
Content-Type: application/json

{"type": "identity_assertion", "assertion_type": "verified_email", "assertion": "user@example.com"}
\`\`\`

\`\`\`http
POST ${at(agentAuthPaths.register)}
Content-Type: application/json

{"type": "anonymous"}
\`\`\`

(\`${agentAuthPaths.register}\` and \`${agentAuthPaths.identity}\` are the same endpoint.)

### The answer

\`\`\`json
{
  "registration_id": "reg_…",
  "registration_type": "identity_assertion",
  "status": "active",
  "identity_assertion": "<service-signed JWT>",
  "assertion_expires": "…",
  "scope": "${publicReadScope}",
  "token_endpoint": "${as.token_endpoint}"
}
\`\`\`

Keep \`identity_assertion\` (valid ${Math.round(lifetimes.identityAssertionSeconds / 3600)} hours): you exchange it for access tokens in Step 5.

- \`status\` \`active\` (ID-JAG and anonymous): go straight to Step 5. An anonymous answer also has
  a \`claim\` block; it never gates the exchange. Use Step 4 only if your user wants to attach the
  registration to themselves.
- \`status\` \`pending\` (\`verified_email\`): a person must confirm first. Do Step 4, then Step 5.
`;
}

/** Step 4: a person confirms with the user code while the agent polls. */
function claim({ as, at, claimGrant }: AuthMdValues): string {
  return `## Step 4: Claim (required when \`status\` is \`pending\`; optional for anonymous)

\`\`\`json
"claim": {
  "verification_uri": "${at(agentAuthPaths.claimPage)}",
  "verification_uri_complete": "${at(agentAuthPaths.claimPage)}?user_code=BCDF-GHJK",
  "user_code": "BCDF-GHJK",
  "expires_in": ${lifetimes.userCodeSeconds},
  "interval": ${lifetimes.pollIntervalSeconds},
  "claim_token": "clm_…"
}
\`\`\`

1. Show the user the \`verification_uri\` and the \`user_code\`, and ask them to open the page
   and type the code. Nothing is emailed. The code works for ${minutes(lifetimes.userCodeSeconds)}.
2. Meanwhile poll the token endpoint with the claim grant (\`${claimGrant}\`), no faster than
   every \`interval\` seconds:

   \`\`\`http
   POST ${as.token_endpoint}
   Content-Type: application/x-www-form-urlencoded

   grant_type=${encodeURIComponent(claimGrant)}&claim_token=clm_…
   \`\`\`

   - \`authorization_pending\`: nobody has typed the code yet; wait \`interval\` seconds and poll again.
   - \`slow_down\`: you polled too fast; use the \`interval\` in that answer from now on.
   - \`expired_token\`: the code expired. Ask for a new one (below) or register again.
   - Success: the token answer of Step 5, plus a fresh \`identity_assertion\` to use from now on.
     The claim token works once.
3. A new user code for the same registration (within ${minutes(lifetimes.claimSeconds)} of registering):

   \`\`\`http
   POST ${at(agentAuthPaths.claimRestart)}
   Content-Type: application/json

   {"claim_token": "clm_…"}
   \`\`\`
`;
}

/** Step 5: the identity assertion exchanged for an access token. */
function exchange({ prm, as }: AuthMdValues): string {
  return `## Step 5: Exchange the assertion for an access token

\`\`\`http
POST ${as.token_endpoint}
Content-Type: application/x-www-form-urlencoded

grant_type=${encodeURIComponent(jwtBearerGrant)}&assertion=<identity_assertion>&resource=${encodeURIComponent(prm.resource)}
\`\`\`

\`\`\`json
{"access_token": "<JWT>", "token_type": "Bearer", "expires_in": ${lifetimes.accessTokenSeconds}, "scope": "${publicReadScope}"}
\`\`\`

There is no refresh token: when the access token expires (${minutes(lifetimes.accessTokenSeconds)}), exchange the same
\`identity_assertion\` again. \`invalid_grant\` means the registration is over (expired, revoked or
unknown): start again at Step 3. \`authorization_pending\` means a \`pending\` (email) registration has
not been confirmed yet; an anonymous one never answers it here.
`;
}

/** Step 6: the token on a request. */
function use({ input, at }: AuthMdValues): string {
  return `## Step 6: Use the token

\`\`\`http
GET ${input.siteUrl}/v1/trips
Authorization: Bearer <access_token>
\`\`\`

\`/v1\` answers the same without it. \`GET ${at(agentAuthPaths.credential)}\` with the header tells you
whether the token still counts; a 401 there carries
\`WWW-Authenticate: Bearer resource_metadata="${at(agentAuthPaths.protectedResource)}"\`.
`;
}

/** Step 7: revocation by the agent or by its identity provider. */
function revocation({ as, at }: AuthMdValues): string {
  return `## Step 7: Revocation

- You can revoke a token yourself (RFC 7009); the answer is 200 either way. Revoking an
  \`identity_assertion\` (\`token_type_hint=identity_assertion\`) ends the whole registration.

  \`\`\`http
  POST ${as.revocation_endpoint}
  Content-Type: application/x-www-form-urlencoded

  token=<access_token>&token_type_hint=access_token
  \`\`\`

- Identity providers revoke a registration by POSTing a security event token
  (\`application/secevent+jwt\`, RFC 8417) to \`${at(agentAuthPaths.events)}\`. Accepted event types:
${revocationEvents.map((e) => `  \`${e}\``).join(',\n')}.
  You learn of it as \`invalid_grant\` on your next exchange.
`;
}

/** The errors, what to do about each, and the limits. */
function errors({ prm }: AuthMdValues): string {
  return `## Errors

Errors are JSON \`{"error": "…", "error_description": "…"}\`; refused assertions add a \`reason\`.

| error | Where | What to do |
| --- | --- | --- |
| \`invalid_request\` | any | The body is malformed (wrong media type, missing field, over 16 KiB). Fix the request. |
| \`anonymous_not_enabled\` | \`${agentAuthPaths.identity}\` | Use another method, or the public API without a credential. |
| \`invalid_grant\` | \`${agentAuthPaths.identity}\`, \`${agentAuthPaths.token}\` | The assertion was refused (\`reason\`: \`invalid_signature\`, \`audience_mismatch\`, \`credential_expired\`, \`replay_detected\`, \`issuer_not_enabled\`, …) or the registration is over. Mint a fresh assertion or register again. |
| \`authorization_pending\` | \`${agentAuthPaths.token}\` | Wait \`interval\` seconds and poll again. |
| \`slow_down\` | \`${agentAuthPaths.token}\` | Poll less often: use the returned \`interval\`. |
| \`expired_token\` | \`${agentAuthPaths.token}\`, \`${agentAuthPaths.claimRestart}\` | Ask for a new user code or register again. |
| \`unsupported_grant_type\` | \`${agentAuthPaths.token}\` | Use a grant from \`grant_types_supported\`. |
| \`invalid_target\`, \`invalid_scope\` | \`${agentAuthPaths.token}\` | Ask for resource \`${prm.resource}\` and scope \`${publicReadScope}\` only. |
| \`rate_limited\` (429) | any | Wait \`Retry-After\` seconds. |
| \`temporarily_unavailable\` (503) | any | Retry later; the public API keeps working. |

Limits per client IP: ${agentAuthLimits.registration.requests} registrations per ${minutes(agentAuthLimits.registration.windowSeconds)},
${agentAuthLimits.claimAttempt.requests} claim attempts per minute, ${agentAuthLimits.token.requests} token or revocation requests per minute.
`;
}

/** The sections of the document, in order; each ends with a line break, and a blank line separates them. */
const sections = [intro, discover, pickMethod, register, claim, exchange, use, revocation, errors];

export function renderAuthMd(input: MetadataInput): string {
  const values = authMdValues(input);
  return sections.map((section) => section(values)).join('\n');
}
