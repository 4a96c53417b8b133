/**
 * A value a request gave, as a message may repeat it ("No trip has the slug "x"."): in double
 * quotes, and only when it is plain text that every format the site writes reads as text alone
 * (Markdown, HTML, JSON, iCalendar, plain text, an MCP tool's text): letters, marks, digits,
 * spaces and hyphens, at most 80 characters. Anything else (a link, a heading, markup, a line
 * break) is not repeated: the message says what was wrong without it, so no address can put
 * words of its own into the site's answers. Undefined when the value is not repeated.
 */
const plain = /^[\p{L}\p{M}\p{N} -]{1,80}$/u;

export function quoted(value: unknown): string | undefined {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
  return text !== undefined && plain.test(text) ? `"${text}"` : undefined;
}

/**
 * A request's path as a message may repeat it: only when it is made of letters, digits, slashes,
 * dots, hyphens and percent-escapes (what a path of this site is), up to 120 characters; a path
 * holding anything a format could read as more than text (`*`, `_`, `[`, `:` …) is not repeated.
 */
const plainPath = /^[/A-Za-z0-9%.-]{1,120}$/;

export function shownPath(pathname: string): string | undefined {
  return plainPath.test(pathname) ? pathname : undefined;
}
