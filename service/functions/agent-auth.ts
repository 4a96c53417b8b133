/**
 * The agent-auth function: the optional agent registration (service/agent-auth) and its
 * discovery documents, which depend on this deployment's settings and keys.
 *
 *   POST /agent/auth, /agent/identity        register (anonymous or with an identity assertion)
 *   POST /agent/identity/claim               a fresh claim code
 *   GET, POST /agent/claim                   the page where a person types the code
 *   POST /agent/credential, /agent/event/notify
 *   POST /oauth/token, /oauth/revoke
 *   GET /.well-known/oauth-protected-resource(/mcp), /.well-known/oauth-authorization-server,
 *       /.well-known/openid-configuration, /.well-known/jwks.json, /auth.md
 */
import type { AgentAuthDeps, ClientContext } from '../agent-auth/deps.ts';
import { confirmOnClaimPage, handleClaimRestart, type ClaimPageOutcome } from '../agent-auth/claim.ts';
import { claimPageMain, claimPageStatus } from '../agent-auth/claim-page.ts';
import { handleCredential } from '../agent-auth/credential.ts';
import {
  handleAuthMd,
  handleAuthorizationServerMetadata,
  handleJwks,
  handleMcpProtectedResourceMetadata,
  handleProtectedResourceMetadata,
} from '../agent-auth/discovery.ts';
import { handleSecurityEvent } from '../agent-auth/events.ts';
import { unavailable } from '../agent-auth/oauth-response.ts';
import { handleRegistration } from '../agent-auth/registration.ts';
import { normalizeUserCode } from '../agent-auth/registry.ts';
import { handleRevocation } from '../agent-auth/revocation.ts';
import { agentAuthRuntime, type AgentAuthRuntime } from '../agent-auth/runtime.ts';
import { handleToken } from '../agent-auth/token.ts';
import {
  clientOf,
  liveFunction,
  methodNotAllowed,
  notServedHere,
  withoutBodyForHead,
  type LiveFunction,
} from './live-function.ts';
import { htmlResponse, livePageHtml } from './page-shell.ts';
import { declaredQuery } from './live-queries.ts';
import { renderQuota, type RenderAdmission } from './render-quota.ts';
import { kept, type LiveDeps, type LiveInstance } from './runtime.ts';
import { cachePolicy } from '../http/cache-policy.ts';

let lastLoggedAt = 0;

function logOnce(what: string, error: unknown): void {
  if (Date.now() - lastLoggedAt < 60_000) return;
  lastLoggedAt = Date.now();
  console.error(`[agent-auth] ${what}: ${error instanceof Error ? error.message : String(error)}`);
}

/** Agent registration on an instance: its keys and registry, for any build's service name. */
function instanceRuntime(instance: LiveInstance): (resourceName: string) => AgentAuthRuntime {
  return agentAuthRuntime(instance.settings(), instance.counters);
}

/** Agent registration as one build names the service, or null (logged) when an AGENT_* setting is wrong. */
type Runtime = () => AgentAuthRuntime | null;

function buildRuntime(live: LiveDeps): Runtime {
  const made = kept(() => live.shared(instanceRuntime)(live.build.catalogue().site.serviceName));
  return () => {
    try {
      return made();
    } catch (error) {
      logOnce('settings', error);
      return null;
    }
  };
}

/** Runs `handler` with the dependencies, or answers 503 when registration cannot work here. */
async function withDeps(runtime: Runtime, handler: (deps: AgentAuthDeps) => Promise<Response>): Promise<Response> {
  const current = runtime();
  if (!current)
    return unavailable('Agent registration is misconfigured on this deployment; the public API works without it.');
  let deps: AgentAuthDeps | null;
  try {
    deps = await current.deps();
  } catch (error) {
    logOnce('keys or storage', error);
    return unavailable();
  }
  if (!deps)
    return unavailable(
      'Agent registration needs operational storage, which is switched off here; the public API works without it.',
    );
  return handler(deps);
}

async function claimPage(
  live: LiveDeps,
  runtime: Runtime,
  request: Request,
  url: URL,
  client: ClientContext,
  admit: RenderAdmission,
): Promise<Response> {
  if (!['GET', 'HEAD', 'POST'].includes(request.method)) return methodNotAllowed(request.method, 'GET, POST');
  // A POST counts against the claim attempts instead.
  if (request.method !== 'POST') {
    const refused = await admit(request, url);
    if (refused) return withoutBodyForHead(request, refused);
  }
  let outcome: ClaimPageOutcome | null = null;
  if (request.method === 'POST') {
    const current = runtime();
    const deps = current ? await current.deps().catch(() => null) : null;
    outcome = deps ? await confirmOnClaimPage(request, deps, client) : { kind: 'unavailable' };
  }
  const catalogue = live.build.catalogue();
  const typed =
    outcome?.kind === 'invalid_code'
      ? outcome.typed
      : (normalizeUserCode(declaredQuery(url).get('user_code') ?? '') ?? '');
  const body = livePageHtml(live.build, 'page', {
    title: 'Confirm an agent',
    description: 'Confirm the registration of an AI agent by typing the code it showed you.',
    canonicalPath: '/agent/claim',
    noindex: true,
    main: claimPageMain(catalogue.site.serviceName, outcome, typed),
  });
  const headers: Record<string, string> = { 'Cache-Control': cachePolicy.never };
  if (outcome?.kind === 'too_many_attempts') headers['Retry-After'] = String(outcome.retryAfterSeconds);
  return withoutBodyForHead(
    request,
    htmlResponse(body, { status: outcome ? claimPageStatus[outcome.kind] : 200, headers }),
  );
}

/** The discovery documents and auth.md: answered from the settings, without storage. */
function discovery(runtime: Runtime, request: Request, path: string): Response | Promise<Response> | null {
  const documents: Record<string, (current: AgentAuthRuntime) => Response | Promise<Response>> = {
    '/.well-known/oauth-protected-resource': (current) => handleProtectedResourceMetadata(request, current.metadata),
    // RFC 9728 path-aware discovery for the MCP endpoint as a resource of its own.
    '/.well-known/oauth-protected-resource/mcp': (current) =>
      handleMcpProtectedResourceMetadata(request, current.metadata),
    '/.well-known/oauth-authorization-server': (current) =>
      handleAuthorizationServerMetadata(request, current.metadata),
    '/.well-known/openid-configuration': (current) => handleAuthorizationServerMetadata(request, current.metadata),
    '/auth.md': (current) => handleAuthMd(request, current.metadata),
    '/.well-known/jwks.json': async (current) => {
      try {
        return handleJwks(request, await current.keys());
      } catch (error) {
        logOnce('signing keys', error);
        return unavailable('The signing keys are not available on this deployment.');
      }
    },
  };
  const document = documents[path];
  if (!document) return null;
  const current = runtime();
  return current ? document(current) : unavailable();
}

/** The agent-auth function of one build, on the instance's keys and registry. */
export function agentAuthFunction(live: LiveDeps): LiveFunction {
  const admit = renderQuota(live);
  const runtime = buildRuntime(live);
  return liveFunction('agent-auth', live.build, async (request, { url }) => {
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const client = { clientIp: clientOf(request) };
    const published = discovery(runtime, request, path);
    if (published) return published;
    switch (path) {
      case '/agent/auth':
      case '/agent/identity':
        return withDeps(runtime, (deps) => handleRegistration(request, deps, client));
      case '/agent/identity/claim':
        return withDeps(runtime, (deps) => handleClaimRestart(request, deps, client));
      case '/agent/claim':
        return claimPage(live, runtime, request, url, client, admit);
      case '/agent/credential':
        return withDeps(runtime, (deps) => handleCredential(request, deps, client));
      case '/agent/event/notify':
        return withDeps(runtime, (deps) => handleSecurityEvent(request, deps, client));
      case '/oauth/token':
        return withDeps(runtime, (deps) => handleToken(request, deps, client));
      case '/oauth/revoke':
        return withDeps(runtime, (deps) => handleRevocation(request, deps, client));
      default:
        return notServedHere(url);
    }
  });
}
