/** GET /.well-known/jwks.json: the public keys of the tokens this site signs. */
import type { APIRoute } from 'astro';
import { handleJwks } from '../../../service/agent-auth/discovery.ts';
import { unavailable } from '../../../service/agent-auth/oauth-response.ts';
import { getAgentAuth } from '../agent/_runtime.ts';

export const prerender = false;

export const ALL: APIRoute = async ({ request }) => {
  const runtime = await getAgentAuth();
  if (!runtime) return unavailable();
  try {
    return handleJwks(request, await runtime.keys());
  } catch (error) {
    console.error(`[agent-auth] signing keys: ${error instanceof Error ? error.message : String(error)}`);
    return unavailable('The signing keys are not available on this deployment.');
  }
};
