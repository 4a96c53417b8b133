/** POST /agent/identity/claim: a fresh user code for a registration waiting for a person. */
import type { APIRoute } from 'astro';
import { handleClaimRestart } from '../../../../service/agent-auth/claim.ts';
import { clientOf, withAgentAuth } from '../_runtime.ts';

export const prerender = false;

export const ALL: APIRoute = (context) => withAgentAuth((deps) => handleClaimRestart(context.request, deps, clientOf(context)));
