/** The MCP endpoint: every method goes to the framework-free handler (which answers 405 to all but POST). */
import type { APIRoute } from 'astro';
import { handleMcp } from '../../service/mcp/index.ts';
import { getV1Deps } from '../lib/runtime.ts';

export const prerender = false;

export const ALL: APIRoute = async ({ request }) => handleMcp(request, await getV1Deps());
