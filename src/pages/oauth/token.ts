/** POST /oauth/token: jwt-bearer and claim grants. */
import type { APIRoute } from 'astro';
import { handleToken } from '../../../service/agent-auth/token.ts';
import { clientOf, withAgentAuth } from '../agent/_runtime.ts';

export const prerender = false;

export const ALL: APIRoute = (context) => withAgentAuth((deps) => handleToken(context.request, deps, clientOf(context)));
