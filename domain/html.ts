/**
 * HTML written from TypeScript (the live pages, page heads, email bodies): every interpolated
 * value is escaped unless it is already HTML built the same way, so text from content, storage
 * or a request can never become markup.
 */
const htmlEscapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => htmlEscapes[c] ?? c);
}

/** A piece of HTML known to be safe (built by `html` or escaped). */
export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

type Interpolated = SafeHtml | string | number | null | undefined | false | readonly Interpolated[];

function render(value: Interpolated): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** `html\`<p>${text}</p>\``: the text is escaped; nested `html` pieces and arrays of them are kept. */
export function html(strings: TemplateStringsArray, ...values: Interpolated[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** HTML that is trusted as it is (rendered Markdown of our own content, a prebuilt fragment). */
export function trustedHtml(value: string): SafeHtml {
  return new SafeHtml(value);
}

/** Every HTML answer names its charset. */
export const htmlMediaType = 'text/html; charset=utf-8';
