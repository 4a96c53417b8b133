/** GET /auth.md: the agent registration flow, step by step, from the running settings. */
import type { APIRoute } from 'astro';
import { handleAuthMd } from '../../service/agent-auth/discovery.ts';
import { unavailable } from '../../service/agent-auth/oauth-response.ts';
import { getAgentAuth } from './agent/_runtime.ts';

export const prerender = false;

export const ALL: APIRoute = async ({ request }) => {
  const runtime = await getAgentAuth();
  return runtime ? handleAuthMd(request, runtime.metadata) : unavailable();
};
