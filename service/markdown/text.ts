/**
 * A value a request gave, written into Markdown as plain text: the departure search's `region`
 * in the title and the "Filtered to" line of departures.md, say. CommonMark lets any ASCII
 * punctuation be escaped with a backslash; every character that can start or close Markdown's
 * syntax is (emphasis, code, links and images, autolinks and raw HTML, entities, table cells,
 * headings, list items, and GFM's bare `www.`, `https:` and e-mail links), and every run of line
 * breaks, tabs and other spaces or control characters becomes one space, so the value stays
 * inside its line: it cannot end a paragraph or begin a block of its own. A reader of the
 * rendered Markdown sees the value as it was typed; a reader of the source sees it with the
 * backslashes.
 */
const syntax = /[\\`*_~[\]()<>!#|&:.@{}+=\-^$]/g;
const breaks = /[\s\p{Cc}\p{Zl}\p{Zp}]+/gu;

export function markdownText(value: string): string {
  return value.replace(breaks, ' ').trim().replace(syntax, '\\$&');
}

/**
 * Text written into Markdown as code, character for character (an address the site gives back,
 * a tool's arguments to send again): a code span, its fence one backtick longer than any run of
 * backticks inside, and on one line.
 */
export function markdownCode(text: string): string {
  const line = text.replace(breaks, ' ');
  const longest = Math.max(0, ...[...line.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  // A space inside the fence keeps a backtick at either end from joining it (CommonMark strips one).
  const padded = /^`|`$/.test(line) ? ` ${line} ` : line;
  return `${fence}${padded}${fence}`;
}
