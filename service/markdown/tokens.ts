/**
 * `X-Markdown-Tokens`: how many tokens a language model's tokenizer is expected to make of a
 * Markdown response, so an agent can budget its context before reading the body. Every Markdown
 * response carries it, computed here from the exact text sent.
 *
 * The estimate is one token per 3.2 characters (Unicode code points), rounded up. The usual rule
 * of thumb, four characters a token, undercounts this site's Markdown (tables, prices, dates,
 * links) by up to a third; 3.2 puts the estimate within about a fifth of two real tokenizers
 * either way (docs/architecture.md, scripts/agent-interop.ts). It is not any one tokenizer's count.
 */
export const markdownTokensHeaderName = 'X-Markdown-Tokens';

const charactersPerToken = 3.2;

export function markdownTokenCount(markdown: string): number {
  let codePoints = 0;
  for (const _ of markdown) codePoints += 1;
  return Math.ceil(codePoints / charactersPerToken);
}

/** The header as a record, to spread into a response's headers. */
export function markdownTokensHeader(markdown: string): Record<string, string> {
  return { [markdownTokensHeaderName]: String(markdownTokenCount(markdown)) };
}
