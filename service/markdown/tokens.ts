/**
 * `X-Markdown-Tokens`: how many tokens a language model's tokenizer is expected to make of a
 * Markdown response, so an agent can budget its context before reading the body. Every Markdown
 * response carries it, computed here from the exact text sent.
 *
 * The estimate is one token per four characters (Unicode code points), rounded up: the usual rule
 * of thumb for English text with current byte-pair tokenizers. It is not the count of any one
 * tokenizer; docs/architecture.md records how it compares with two real ones on this site's pages.
 */
export const markdownTokensHeaderName = 'X-Markdown-Tokens';

const charactersPerToken = 4;

export function markdownTokenCount(markdown: string): number {
  let codePoints = 0;
  for (const _ of markdown) codePoints += 1;
  return Math.ceil(codePoints / charactersPerToken);
}

/** The header as a record, to spread into a response's headers. */
export function markdownTokensHeader(markdown: string): Record<string, string> {
  return { [markdownTokensHeaderName]: String(markdownTokenCount(markdown)) };
}
