/**
 * HTML always names its charset. Pages Astro renders per request come out as bare `text/html`;
 * a host passes the Content-Type of every answer through `htmlContentType` before sending it.
 */
export const htmlMediaType = 'text/html; charset=utf-8';

/** `text/html` without a charset becomes `text/html; charset=utf-8`; any other value is returned as it is. */
export function htmlContentType(contentType: string | null): string | null {
  if (contentType === null) return null;
  const [essence = '', ...parameters] = contentType.split(';').map((part) => part.trim());
  if (essence.toLowerCase() !== 'text/html') return contentType;
  if (parameters.some((p) => p.toLowerCase().startsWith('charset='))) return contentType;
  return [htmlMediaType, ...parameters.filter(Boolean)].join('; ');
}
