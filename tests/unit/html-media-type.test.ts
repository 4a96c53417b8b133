/** Every HTML answer names its charset: the function the hosts pass Content-Type through. */
import { describe, expect, it } from 'vitest';
import { htmlContentType } from '../../service/http/html.ts';

describe('HTML media type', () => {
  it('adds the charset to a bare text/html and leaves everything else alone', () => {
    expect(htmlContentType('text/html')).toBe('text/html; charset=utf-8');
    expect(htmlContentType('Text/HTML')).toBe('text/html; charset=utf-8');
    expect(htmlContentType('text/html; charset=utf-8')).toBe('text/html; charset=utf-8');
    expect(htmlContentType('text/html;charset=UTF-8')).toBe('text/html;charset=UTF-8');
    expect(htmlContentType('application/json')).toBe('application/json');
    expect(htmlContentType(null)).toBeNull();
  });
});
