/** GET /.well-known/oauth-authorization-server (RFC 8414), with the agent_auth block. */
import type { APIRoute } from 'astro';
import { handleAuthorizationServerMetadata } from '../../../service/agent-auth/discovery.ts';
import { unavailable } from '../../../service/agent-auth/oauth-response.ts';
import { getAgentAuth } from '../agent/_runtime.ts';

export const prerender = false;

export const ALL: APIRoute = async ({ request }) => {
  const runtime = await getAgentAuth();
  return runtime ? handleAuthorizationServerMetadata(request, runtime.metadata) : unavailable();
};
