/** Markdown responses for agents: the media type, `Vary: Accept` and a token estimate. */
export function markdownResponse(markdown: string, init: { status?: number; cacheControl?: string } = {}): Response {
  return new Response(markdown, {
    status: init.status ?? 200,
    headers: {
      'Content-Type': 'text/markdown; charset=utf-8',
      Vary: 'Accept',
      'Cache-Control': init.cacheControl ?? 'public, max-age=300',
      // Roughly four characters a token, as Markdown-for-agents readers expect.
      'X-Markdown-Tokens': String(Math.ceil(markdown.length / 4)),
    },
  });
}
