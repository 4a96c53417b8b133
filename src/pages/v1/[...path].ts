/** Every request under /v1 goes to the framework-free API handler. */
import type { APIRoute } from 'astro';
import { handleV1 } from '../../../service/v1/index.ts';
import { getV1Deps } from '../../lib/runtime.ts';

export const prerender = false;

export const ALL: APIRoute = async ({ request }) => handleV1(request, await getV1Deps());
