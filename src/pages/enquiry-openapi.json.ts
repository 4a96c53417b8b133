/** The OpenAPI 3.1 description of POST /api/bookings, generated from the endpoint's own schema and answers. */
import type { APIRoute } from 'astro';
import { buildEnquiryOpenApiDocument } from '../../service/bookings/openapi.ts';
import { publishedJson } from '../../service/agents/published-file.ts';
import { enquiryOpenApiPath } from '../../service/site-files.ts';
import { getCatalogue } from '../lib/catalogue.ts';

export const GET: APIRoute = async () =>
  publishedJson(enquiryOpenApiPath, await buildEnquiryOpenApiDocument(await getCatalogue()));
