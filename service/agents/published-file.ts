/**
 * The response of a published file, with the media type and headers service/site-files.ts gives
 * its path. At build time only the body survives (the hosts add headers); the headers matter
 * when the same route answers on demand, as in `astro dev`.
 */
import { markdownTokensHeader } from '../markdown/tokens.ts';
import { agentFileHeaders, siteFileByPath } from '../site-files.ts';

export function publishedFile(path: string, body: string | Uint8Array<ArrayBuffer>): Response {
  const file = siteFileByPath(path);
  if (!file) throw new Error(`${path} is not declared in service/site-files.ts`);
  const text = () => (typeof body === 'string' ? body : new TextDecoder().decode(body));
  const tokens = file.mediaType.startsWith('text/markdown') ? markdownTokensHeader(text()) : {};
  return new Response(body, { headers: { ...agentFileHeaders(path), 'Content-Type': file.mediaType, ...tokens } });
}

/** JSON files are indented: people open them too, and the bytes are the same on every build. */
export function publishedJson(path: string, data: unknown): Response {
  return publishedFile(path, `${JSON.stringify(data, null, 2)}\n`);
}
