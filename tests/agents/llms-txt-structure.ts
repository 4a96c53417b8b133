/**
 * The llmstxt.org structure, as a checker: an H1 first (the only required part), then a `>`
 * summary, then free text without headings, then H2 sections whose every line is a
 * `- [name](url)` link with optional `: notes`. Returns the problems found (none when valid).
 */
export function checkLlmsTxt(text: string): string[] {
  const problems: string[] = [];
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  const nonEmpty = lines.map((line, i) => ({ line, n: i + 1 })).filter(({ line }) => line.trim() !== '');
  if (!/^# \S/.test(nonEmpty[0]?.line ?? '')) problems.push('the first line is not an H1');
  if (!/^> \S/.test(nonEmpty[1]?.line ?? '')) problems.push('the H1 is not followed by a > summary');
  let inSections = false;
  let sections = 0;
  for (const { line, n } of nonEmpty.slice(1)) {
    if (/^# /.test(line)) problems.push(`line ${n}: a second H1`);
    if (/^#{3,} /.test(line)) problems.push(`line ${n}: headings below H2 are not part of the format`);
    if (/^## \S/.test(line)) {
      inSections = true;
      sections += 1;
      continue;
    }
    if (inSections && !/^- \[[^\]]+\]\([^)\s]+\)(: \S.*)?$/.test(line))
      problems.push(`line ${n}: not a "- [name](url): notes" link: ${line.slice(0, 80)}`);
  }
  if (sections === 0) problems.push('no H2 section of links');
  return problems;
}

/** Every link target of a Markdown or plain text, in order of appearance. */
export function linksOf(text: string): string[] {
  // A backslash ends a link too: in JSON text it starts an escape such as \n.
  return [...text.matchAll(/https?:\/\/[^\s)"'<>`,\\]+/g)].map((m) => m[0].replace(/[.:;]+$/, ''));
}
