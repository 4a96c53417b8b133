/** Markdown responses for agents: the media type, `Vary: Accept` and a token estimate. */
import { cachePolicy } from '../http/cache-policy.ts';
import { markdownTokensHeader } from './tokens.ts';

export const markdownMediaType = 'text/markdown; charset=utf-8';

export function markdownResponse(markdown: string, init: { status?: number; cacheControl?: string } = {}): Response {
  return new Response(markdown, {
    status: init.status ?? 200,
    headers: {
      'Content-Type': markdownMediaType,
      Vary: 'Accept',
      'Cache-Control': init.cacheControl ?? cachePolicy.page,
      ...markdownTokensHeader(markdown),
    },
  });
}
