/** GET /.well-known/oauth-protected-resource (RFC 9728). */
import type { APIRoute } from 'astro';
import { handleProtectedResourceMetadata } from '../../../service/agent-auth/discovery.ts';
import { unavailable } from '../../../service/agent-auth/oauth-response.ts';
import { getAgentAuth } from '../agent/_runtime.ts';

export const prerender = false;

export const ALL: APIRoute = async ({ request }) => {
  const runtime = await getAgentAuth();
  return runtime ? handleProtectedResourceMetadata(request, runtime.metadata) : unavailable();
};
