/** /openapi.json: the OpenAPI 3.1 document of /v1, generated at build time for this SITE_URL. */
import type { APIRoute } from 'astro';
import { buildOpenApiDocument } from '../../service/v1/openapi.ts';
import { getCatalogue } from '../lib/catalogue.ts';

export const prerender = true;

export const GET: APIRoute = async () => {
  const document = await buildOpenApiDocument(await getCatalogue());
  return new Response(`${JSON.stringify(document, null, 2)}\n`, {
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
};
