/**
 * The structure of a document, without its text: what a value written into it must never change.
 * Two documents that differ only in the text of a value have the same structure; a value that
 * adds a heading, a link, a paragraph, an element, an attribute, a calendar line or a JSON member
 * changes it. Each format is read by a real parser: Markdown by marked's lexer (GFM, as agents'
 * renderers read it), HTML by Chromium's DOMParser, JSON by JSON.parse, iCalendar by its lines
 * (RFC 5545: a line is a property, folded lines continue with a space).
 */
import type { Page } from 'playwright-core';
import { marked, type Token } from 'marked';

/** Text, however many escapes and entities it holds, is one `text`. */
const textTypes = new Set(['text', 'escape']);

function markdownTokens(tokens: readonly Token[]): string {
  const out: string[] = [];
  for (const token of tokens) {
    if (token.type === 'space') continue;
    const inner = 'tokens' in token && Array.isArray(token.tokens) ? token.tokens : [];
    if (textTypes.has(token.type) && inner.every((t) => textTypes.has(t.type))) {
      if (out.at(-1) !== 'text') out.push('text');
      continue;
    }
    const parts: Token[][] = [inner];
    if (token.type === 'list') for (const item of token.items) parts.push(item.tokens);
    if (token.type === 'table') {
      for (const cell of token.header) parts.push(cell.tokens);
      for (const row of token.rows) for (const cell of row) parts.push(cell.tokens);
    }
    const depth = token.type === 'heading' ? String(token.depth) : '';
    out.push(`${token.type}${depth}(${parts.map(markdownTokens).join('|')})`);
  }
  return out.join(',');
}

export function markdownStructure(text: string): string {
  return markdownTokens(marked.lexer(text));
}

/** Each content line's property name (and what BEGIN and END open and close), however a value is folded. */
export function calendarStructure(text: string): string {
  return text
    .replace(/\r\n[ \t]/g, '')
    .split(/\r\n|\n|\r/)
    .filter((line) => line !== '')
    .map((line) => {
      const name = /^[A-Za-z0-9-]+/.exec(line)?.[0] ?? `?${line.slice(0, 20)}`;
      return name === 'BEGIN' || name === 'END' ? line : name;
    })
    .join('\n');
}

function jsonShape(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jsonShape).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${jsonShape((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return value === null ? 'null' : typeof value;
}

export function jsonStructure(text: string): string {
  return jsonShape(JSON.parse(text));
}

/** Elements (with the names of their attributes) and comments of each document, as Chromium parses them. */
export async function htmlStructures(page: Page, documents: string[]): Promise<string[]> {
  return page.evaluate((texts) => {
    const shape = (node: Node): string => {
      if (node.nodeType === Node.COMMENT_NODE) return '#comment';
      if (node.nodeType !== Node.ELEMENT_NODE) return '';
      const element = node as Element;
      const attributes = [...element.attributes].map((a) => a.name).sort();
      const children = [...element.childNodes].map(shape).filter(Boolean);
      return `${element.tagName}[${attributes.join(' ')}](${children.join(',')})`;
    };
    return texts.map((text) => shape(new DOMParser().parseFromString(text, 'text/html').documentElement));
  }, documents);
}
