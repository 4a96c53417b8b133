/**
 * Markdown for agents: a page asked for with `Accept: text/markdown` is answered by its
 * Markdown twin (the page path plus `.md`; `/index.md` for the home page).
 */

/** True when text/markdown is acceptable and preferred over text/html. */
export function prefersMarkdown(accept: string | null): boolean {
  if (!accept) return false;
  let markdown = 0;
  let html = 0;
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2)) || 0;
    const media = type.trim();
    if (media === 'text/markdown' || media === 'text/x-markdown') markdown = Math.max(markdown, q);
    if (media === 'text/html' || media === 'application/xhtml+xml') html = Math.max(html, q);
  }
  return markdown > 0 && markdown >= html;
}

/** Paths that are pages (not files, not the API or live functions) have a Markdown twin. */
export function isPagePath(pathname: string): boolean {
  if (pathname.startsWith('/v1') || pathname.startsWith('/api/') || pathname.startsWith('/_')) return false;
  if (
    pathname.startsWith('/.well-known/') ||
    pathname.startsWith('/agent/') ||
    pathname.startsWith('/oauth/') ||
    pathname === '/mcp'
  )
    return false;
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return !last.includes('.');
}

export function markdownTwinPath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/index.md' : `${trimmed}.md`;
}
