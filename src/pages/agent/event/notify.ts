/** POST /agent/event/notify: security event tokens from trusted identity providers. */
import type { APIRoute } from 'astro';
import { handleSecurityEvent } from '../../../../service/agent-auth/events.ts';
import { withAgentAuth } from '../_runtime.ts';

export const prerender = false;

export const ALL: APIRoute = ({ request }) => withAgentAuth((deps) => handleSecurityEvent(request, deps));
