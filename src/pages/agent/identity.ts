/** POST /agent/identity: agent registration, anonymous or with an identity assertion. */
import type { APIRoute } from 'astro';
import { handleRegistration } from '../../../service/agent-auth/registration.ts';
import { clientOf, withAgentAuth } from './_runtime.ts';

export const prerender = false;

export const ALL: APIRoute = (context) => withAgentAuth((deps) => handleRegistration(context.request, deps, clientOf(context)));
