/** POST /oauth/revoke: token revocation (RFC 7009). */
import type { APIRoute } from 'astro';
import { handleRevocation } from '../../../service/agent-auth/revocation.ts';
import { clientOf, withAgentAuth } from '../agent/_runtime.ts';

export const prerender = false;

export const ALL: APIRoute = (context) => withAgentAuth((deps) => handleRevocation(context.request, deps, clientOf(context)));
