/**
 * What the site publishes about agent registration: the protected resource metadata
 * (RFC 9728), the authorization server metadata (RFC 8414) with its `agent_auth` block, and
 * the names every other module reads (paths, grant types, scope, lifetimes). auth.md is
 * written from these same values.
 *
 * `agent_auth` carries both generations of member names (register_uri and identity_endpoint,
 * claim_uri and claim_endpoint, revocation_uri), because clients in the wild read either.
 *
 * The same authorization server metadata answers /.well-known/openid-configuration, an alias the
 * contract keeps. It stays OAuth metadata (RFC 8414), not OpenID Connect discovery: this site is
 * not an OpenID Provider and issues no ID tokens, so OpenID Discovery's provider-only members
 * (`subject_types_supported`, `id_token_signing_alg_values_supported`) are left out rather than
 * claimed, and the alias names the RFC 8414 address as canonical; auth.md says so.
 */

export const agentAuthPaths = {
  protectedResource: '/.well-known/oauth-protected-resource',
  /** RFC 9728 §3.1: the metadata of the resource at /mcp, with the well-known part inserted before its path. */
  protectedResourceMcp: '/.well-known/oauth-protected-resource/mcp',
  mcp: '/mcp',
  authorizationServer: '/.well-known/oauth-authorization-server',
  openidConfiguration: '/.well-known/openid-configuration',
  jwks: '/.well-known/jwks.json',
  skill: '/auth.md',
  register: '/agent/auth',
  identity: '/agent/identity',
  claimRestart: '/agent/identity/claim',
  claimPage: '/agent/claim',
  credential: '/agent/credential',
  events: '/agent/event/notify',
  token: '/oauth/token',
  revoke: '/oauth/revoke',
} as const;

export const publicReadScope = 'public.read';
export const idJagAssertionType = 'urn:ietf:params:oauth:token-type:id-jag';
export const verifiedEmailAssertionType = 'verified_email';
export const jwtBearerGrant = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** JOSE `typ` values: each kind of token is only accepted where it belongs. */
export const tokenTypes = { idJag: 'oauth-id-jag+jwt', accessToken: 'at+jwt', securityEvent: 'secevent+jwt' } as const;

/** Security event types (RFC 8417) that revoke a registration. */
export const revocationEvents = [
  'https://schemas.openid.net/secevent/caep/event-type/session-revoked',
  'https://schemas.openid.net/secevent/risc/event-type/sessions-revoked',
  'https://schemas.openid.net/secevent/risc/event-type/account-disabled',
  'https://schemas.openid.net/secevent/risc/event-type/account-purged',
  'https://schemas.workos.com/events/agent/auth/identity/assertion/revoked',
] as const;

export const lifetimes = {
  /** Access tokens are short-lived; an agent refreshes by exchanging its identity assertion again. */
  accessTokenSeconds: 15 * 60,
  /** The service-signed identity assertion an agent keeps and exchanges. */
  identityAssertionSeconds: 24 * 60 * 60,
  /** How long a person has to type a user code. */
  userCodeSeconds: 10 * 60,
  /** How long a registration waits for a person before it lapses (a fresh code can be asked for meanwhile). */
  claimSeconds: 60 * 60,
  /** Advertised polling interval of the claim grant. */
  pollIntervalSeconds: 5,
  /** Allowed clock difference with identity providers. */
  clockSkewSeconds: 60,
  /** Oldest (by iat, the clock skew included) and longest-lived ID-JAG accepted: they are minted for immediate use. */
  idJagMaxAgeSeconds: 10 * 60,
  idJagMaxLifetimeSeconds: 60 * 60,
} as const;

/**
 * The claim grant's URN. The vendor segment is neutral: derived from the site's host (a URN
 * namespace allows letters, digits and hyphens, at most 32 characters).
 */
export function claimGrantType(siteUrl: string): string {
  const host = new URL(siteUrl).hostname
    .replace(/^www\./, '')
    .replace(/[^a-z0-9]+/gi, '-')
    .toLowerCase();
  const nid =
    host
      .replace(/^-+|-+$/g, '')
      .slice(0, 32)
      .replace(/-+$/, '') || 'site';
  return `urn:${nid.length < 2 ? `${nid}-site` : nid}:agent-auth:grant-type:claim`;
}

export interface MetadataInput {
  siteUrl: string;
  resourceName: string;
  anonymousEnabled: boolean;
  trustedIssuers: string[];
}

/** The resource is the site origin; audiences may also carry it with a trailing slash. */
export function resourceAudiences(siteUrl: string): string[] {
  return [siteUrl, `${siteUrl}/`];
}

/**
 * What a token request may name as `resource` (RFC 8707): the site, or its MCP endpoint, which
 * has its own protected resource metadata. Tokens are audience-bound to the site origin either
 * way, which covers /mcp.
 */
export function tokenResources(siteUrl: string): string[] {
  return [...resourceAudiences(siteUrl), `${siteUrl}${agentAuthPaths.mcp}`];
}

/** RFC 9728 metadata of the site (`resourcePath` empty) or of one resource under it, such as /mcp. */
export function protectedResourceMetadata(input: MetadataInput, resourcePath = '') {
  return {
    resource: `${input.siteUrl}${resourcePath}`,
    resource_name: input.resourceName,
    authorization_servers: [input.siteUrl],
    scopes_supported: [publicReadScope],
    bearer_methods_supported: ['header'],
    resource_documentation: `${input.siteUrl}${agentAuthPaths.skill}`,
  };
}

export function authorizationServerMetadata(input: MetadataInput) {
  const at = (p: string) => `${input.siteUrl}${p}`;
  const credentialTypes = ['access_token'];
  return {
    issuer: input.siteUrl,
    authorization_endpoint: at(agentAuthPaths.claimPage),
    token_endpoint: at(agentAuthPaths.token),
    jwks_uri: at(agentAuthPaths.jwks),
    revocation_endpoint: at(agentAuthPaths.revoke),
    scopes_supported: [publicReadScope],
    // The claim page confirms a registration and hands nothing back to a redirect: "none".
    response_types_supported: ['none'],
    grant_types_supported: [jwtBearerGrant, claimGrantType(input.siteUrl)],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    service_documentation: at(agentAuthPaths.skill),
    agent_auth: {
      skill: at(agentAuthPaths.skill),
      register_uri: at(agentAuthPaths.register),
      identity_endpoint: at(agentAuthPaths.identity),
      claim_uri: at(agentAuthPaths.claimRestart),
      claim_endpoint: at(agentAuthPaths.claimRestart),
      revocation_uri: at(agentAuthPaths.revoke),
      events_endpoint: at(agentAuthPaths.events),
      identity_types_supported: input.anonymousEnabled ? ['anonymous', 'identity_assertion'] : ['identity_assertion'],
      ...(input.anonymousEnabled ? { anonymous: { credential_types_supported: credentialTypes } } : {}),
      identity_assertion: {
        assertion_types_supported: [idJagAssertionType, verifiedEmailAssertionType],
        credential_types_supported: credentialTypes,
        trusted_issuers: input.trustedIssuers,
      },
      events_supported: [...revocationEvents],
    },
  };
}
