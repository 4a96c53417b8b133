/** The tools the pages offer an agent in the browser (WebMCP), read by /webmcp-tools.js: see service/agents/webmcp-tools.ts. */
import type { APIRoute } from 'astro';
import { buildWebMcpTools } from '../../service/agents/webmcp-tools.ts';
import { getCatalogue } from '../lib/catalogue.ts';

export const GET: APIRoute = async () =>
  new Response(`${JSON.stringify(buildWebMcpTools(await getCatalogue()), null, 2)}\n`, {
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
