/**
 * The public documents of agent registration: protected resource metadata, authorization
 * server metadata (also at /.well-known/openid-configuration), the JWK Set and auth.md.
 * Answered per request from the running settings, so SITE_URL at runtime is what they say.
 */
import { cachePolicy } from '../http/cache-policy.ts';
import { renderAuthMd } from './auth-md.ts';
import {
  agentAuthPaths,
  authorizationServerMetadata,
  protectedResourceMetadata,
  type MetadataInput,
} from './metadata.ts';
import { markdownTokensHeader } from '../markdown/tokens.ts';
import { methodNotAllowed } from './oauth-response.ts';
import type { SigningKeys } from './signing-keys.ts';

const shared = {
  'Cache-Control': cachePolicy.page,
  'Access-Control-Allow-Origin': '*',
  'X-Content-Type-Options': 'nosniff',
} as const;

function document(request: Request, body: string, mediaType: string, headers: Record<string, string> = {}): Response {
  if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed('GET');
  return new Response(request.method === 'HEAD' ? null : body, {
    status: 200,
    headers: { 'Content-Type': mediaType, ...shared, ...headers },
  });
}

const json = (request: Request, value: unknown) =>
  document(request, `${JSON.stringify(value, null, 2)}\n`, 'application/json; charset=utf-8');

export function handleProtectedResourceMetadata(request: Request, input: MetadataInput): Response {
  return json(request, protectedResourceMetadata(input));
}

/** GET /.well-known/oauth-protected-resource/mcp: the MCP endpoint as a resource (RFC 9728 §3.1). */
export function handleMcpProtectedResourceMetadata(request: Request, input: MetadataInput): Response {
  return json(request, protectedResourceMetadata(input, agentAuthPaths.mcp));
}

/**
 * Also answers /.well-known/openid-configuration, which the contract keeps as an alias: the same
 * OAuth metadata, not an OpenID Provider's (the site issues no ID tokens, so it publishes no
 * OpenID Connect discovery). RFC 8414 §5 counts that address as general OAuth; the answer there
 * names the RFC 8414 address as canonical, so it reads as the alias it is.
 */
export function handleAuthorizationServerMetadata(request: Request, input: MetadataInput): Response {
  const response = json(request, authorizationServerMetadata(input));
  if (new URL(request.url).pathname === agentAuthPaths.openidConfiguration) {
    response.headers.set('Link', `<${`${input.siteUrl}${agentAuthPaths.authorizationServer}`}>; rel="canonical"`);
  }
  return response;
}

export function handleJwks(request: Request, keys: SigningKeys): Response {
  if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed('GET');
  return new Response(request.method === 'HEAD' ? null : JSON.stringify(keys.jwks), {
    status: 200,
    headers: { 'Content-Type': 'application/jwk-set+json', ...shared },
  });
}

export function handleAuthMd(request: Request, input: MetadataInput): Response {
  const markdown = renderAuthMd(input);
  return document(request, markdown, 'text/markdown; charset=utf-8', markdownTokensHeader(markdown));
}
