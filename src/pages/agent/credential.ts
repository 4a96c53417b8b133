/** GET /agent/credential: what a Bearer access token stands for, or a 401. */
import type { APIRoute } from 'astro';
import { handleCredential } from '../../../service/agent-auth/credential.ts';
import { withAgentAuth } from './_runtime.ts';

export const prerender = false;

export const ALL: APIRoute = ({ request }) => withAgentAuth((deps) => handleCredential(request, deps));
