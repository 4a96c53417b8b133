/**
 * Every Markdown response built in service/ carries X-Markdown-Tokens, computed by one function
 * from the exact text sent: negotiated pages and twins (markdownResponse), published Markdown
 * files (publishedFile), auth.md (live) and the not-found note.
 */
import { describe, expect, it } from 'vitest';
import { handleAuthMd } from '../../service/agent-auth/discovery.ts';
import { agentInstructionsMarkdown } from '../../service/guidance/agent-guidance.ts';
import { publishedFile } from '../../service/agents/published-file.ts';
import { departuresMarkdown } from '../../service/markdown/departures.ts';
import { markdownResponse } from '../../service/markdown/response.ts';
import { markdownTokenCount, markdownTokensHeader, markdownTokensHeaderName } from '../../service/markdown/tokens.ts';
import { tripMarkdown } from '../../service/markdown/trip.ts';
import { loadCatalogue } from '../helpers/content.ts';

const catalogue = loadCatalogue();

describe('the token estimate', () => {
  it('is one token per 3.2 characters, rounded up, counting characters rather than UTF-16 units or bytes', () => {
    expect(markdownTokenCount('')).toBe(0);
    expect(markdownTokenCount('abc')).toBe(1);
    expect(markdownTokenCount('abcd')).toBe(2);
    expect(markdownTokenCount('x'.repeat(32))).toBe(10);
    // Sixteen astral characters are 32 UTF-16 units and 64 bytes, but sixteen characters.
    expect('🏔'.repeat(16).length).toBe(32);
    expect(markdownTokenCount('🏔'.repeat(16))).toBe(5);
    expect(markdownTokenCount('हिमालय')).toBe(Math.ceil([...'हिमालय'].length / 3.2));
    expect(markdownTokensHeader('# Title\n')).toEqual({ [markdownTokensHeaderName]: '3' });
  });
});

describe('Markdown responses', () => {
  const tokensOf = async (res: Response) => {
    const text = await res.clone().text();
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    return { header: res.headers.get('x-markdown-tokens'), expected: String(markdownTokenCount(text)) };
  };

  it('negotiated pages, twins, departures.md and the 404 note (markdownResponse)', async () => {
    const page = catalogue.trips[0]!;
    const bodies = [
      tripMarkdown(catalogue, page, { state: 'off' }),
      departuresMarkdown(catalogue, { state: 'off' }),
      '# Not found\n\nSee /sitemap-index.xml.\n',
    ];
    for (const body of bodies) {
      const { header, expected } = await tokensOf(markdownResponse(body, { status: 200 }));
      expect(header).toBe(expected);
    }
    const notFound = markdownResponse('# Not found\n', { status: 404 });
    expect(notFound.headers.get('x-markdown-tokens')).toBe('4');
  });

  it('published Markdown files (agent instructions, skills) and only those', async () => {
    const { header, expected } = await tokensOf(
      publishedFile('/agent-instructions.md', agentInstructionsMarkdown(catalogue)),
    );
    expect(header).toBe(expected);
    expect(publishedFile('/llms.txt', '# x\n').headers.get('x-markdown-tokens')).toBeNull();
  });

  it('auth.md', async () => {
    const res = handleAuthMd(new Request('https://example.test/auth.md'), {
      siteUrl: 'https://example.test',
      resourceName: 'Test',
      anonymousEnabled: true,
      trustedIssuers: [],
    });
    const { header, expected } = await tokensOf(res);
    expect(header).toBe(expected);
  });
});
