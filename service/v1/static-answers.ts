/**
 * The /v1 answers that are the same for every request, published as files at build time: the
 * service index, the trip and peak lists without filters, and each trip and peak. The request
 * rules send a plain GET of those paths to these files (service/http/api-files.ts); anything else (a
 * query string, another method, an Accept that rules JSON out, an unknown id) goes to the
 * catalogue function, which answers with the same code, so the bytes are the same either way.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { handleV1 } from './index.ts';

/** The body of the answer to `GET <path>`, exactly as the API writes it. */
export async function staticAnswer(catalogue: Catalogue, path: string): Promise<Response> {
  const response = await handleV1(new Request(`${catalogue.siteUrl}${path}`), { catalogue, departures: null });
  if (response.status !== 200)
    throw new Error(`GET ${path} answered ${response.status}; only successful answers are published as files`);
  return new Response(await response.text(), { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
}
