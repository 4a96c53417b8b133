/**
 * How the agent-registration routes reach their handlers: the process's dependencies, the
 * client's address, and a plain 503 (never a 500) when settings or storage are not usable.
 * Files starting with "_" are not routes.
 */
import type { APIContext } from 'astro';
import type { ClientContext, AgentAuthDeps } from '../../../service/agent-auth/deps.ts';
import { unavailable } from '../../../service/agent-auth/oauth-response.ts';
import { agentAuthRuntime, type AgentAuthRuntime } from '../../../service/agent-auth/runtime.ts';
import { clientIp } from '../../../service/rules/client-ip.ts';
import { getCatalogue } from '../../lib/catalogue.ts';
import { runtimeSettings } from '../../lib/runtime.ts';

let lastLoggedAt = 0;

function logOnce(what: string, error: unknown): void {
  if (Date.now() - lastLoggedAt < 60_000) return;
  lastLoggedAt = Date.now();
  console.error(`[agent-auth] ${what}: ${error instanceof Error ? error.message : String(error)}`);
}

/** The runtime, or null (logged) when an AGENT_* setting is wrong. */
export async function getAgentAuth(): Promise<AgentAuthRuntime | null> {
  try {
    const catalogue = await getCatalogue();
    return agentAuthRuntime(runtimeSettings(), catalogue.site.serviceName);
  } catch (error) {
    logOnce('settings', error);
    return null;
  }
}

export function clientOf(context: Pick<APIContext, 'request' | 'clientAddress'>): ClientContext {
  let address: string | undefined;
  try {
    address = context.clientAddress;
  } catch {
    address = undefined;
  }
  return { clientIp: clientIp(context.request, runtimeSettings().TRUST_PROXY ?? 'none', address) };
}

/** Runs `handler` with the dependencies, or answers 503 when registration cannot work here. */
export async function withAgentAuth(handler: (deps: AgentAuthDeps) => Promise<Response>): Promise<Response> {
  const runtime = await getAgentAuth();
  if (!runtime) return unavailable('Agent registration is misconfigured on this deployment; the public API works without it.');
  let deps: AgentAuthDeps | null;
  try {
    deps = await runtime.deps();
  } catch (error) {
    logOnce('keys or storage', error);
    return unavailable();
  }
  if (!deps) return unavailable('Agent registration needs operational storage, which is switched off here; the public API works without it.');
  return handler(deps);
}
