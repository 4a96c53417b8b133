/** POST /agent/auth: agent registration (the earlier name of /agent/identity). */
import type { APIRoute } from 'astro';
import { handleRegistration } from '../../../service/agent-auth/registration.ts';
import { clientOf, withAgentAuth } from './_runtime.ts';

export const prerender = false;

export const ALL: APIRoute = (context) => withAgentAuth((deps) => handleRegistration(context.request, deps, clientOf(context)));
