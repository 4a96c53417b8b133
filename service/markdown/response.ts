/** Markdown responses for agents: the media type, `Vary: Accept` and a token estimate. */
import { markdownTokensHeader } from './tokens.ts';

export const markdownMediaType = 'text/markdown; charset=utf-8';

export function markdownResponse(markdown: string, init: { status?: number; cacheControl?: string } = {}): Response {
  return new Response(markdown, {
    status: init.status ?? 200,
    headers: {
      'Content-Type': markdownMediaType,
      Vary: 'Accept',
      'Cache-Control': init.cacheControl ?? 'public, max-age=300',
      ...markdownTokensHeader(markdown),
    },
  });
}
