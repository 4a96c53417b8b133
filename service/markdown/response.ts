/** Markdown responses for agents: the media type, `Vary: Accept` and a token estimate. */

/** Roughly four characters a token, as Markdown-for-agents readers expect. */
export function markdownTokenCount(markdown: string): number {
  return Math.ceil(markdown.length / 4);
}

export function markdownResponse(markdown: string, init: { status?: number; cacheControl?: string } = {}): Response {
  return new Response(markdown, {
    status: init.status ?? 200,
    headers: {
      'Content-Type': 'text/markdown; charset=utf-8',
      Vary: 'Accept',
      'Cache-Control': init.cacheControl ?? 'public, max-age=300',
      'X-Markdown-Tokens': String(markdownTokenCount(markdown)),
    },
  });
}
