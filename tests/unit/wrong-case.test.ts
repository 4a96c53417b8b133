/**
 * Paths in the wrong letter case (service/rules/wrong-case.ts): which paths count, what each is
 * answered, and that the built assets left alone are exactly those the routing middleware skips.
 */
import { describe, expect, it } from 'vitest';
import { config } from '../../middleware.ts';
import { applyRules } from '../../service/rules/index.ts';
import { builtAssets, isWrongCase, notFoundTargets } from '../../service/rules/wrong-case.ts';

const siteUrl = 'https://example.test';
const rules = (path: string, accept?: string) =>
  applyRules(new Request(`${siteUrl}${path}`, { headers: accept ? { Accept: accept } : {} }), {
    siteUrl,
    apiLimiter: null,
    trustProxy: 'none',
  });

describe('wrong-case paths', () => {
  it('are paths with a capital letter, decoded, outside the built assets', () => {
    for (const path of ['/V1/TRIPS', '/LLMS.TXT', '/Treks', '/treks/Sample-Trek', '/%54reks'])
      expect(isWrongCase(path), path).toBe(true);
    for (const path of [
      '/v1/trips',
      '/llms.txt',
      '/treks/%e2%9c%93',
      '/_astro/Index.B1x2.css',
      '/images/social/x.PNG',
      '/styles/Site.css',
      '/favicon.svg',
    ])
      expect(isWrongCase(path), path).toBe(false);
  });

  it('leave alone exactly the assets the routing middleware skips', () => {
    const skipped = /^\/\(\(\?!(.*)\)\.\*\)$/.exec(config.matcher)?.[1];
    const middlewareSkips = new RegExp(`^/(?:${skipped})`);
    for (const path of [
      '/_astro/a.css',
      '/images/a.png',
      '/styles/a.css',
      '/favicon.svg',
      '/favicon.svgz',
      '/imagesx/a',
      '/treks',
      '/v1/trips',
    ]) {
      expect(builtAssets.test(path), path).toBe(middlewareSkips.test(path));
    }
  });

  it("get the site's not-found answer Accept asks for, /V1 paths too, which are not the API's", async () => {
    expect(await rules('/V1/TRIPS')).toMatchObject({
      kind: 'continue',
      pathname: notFoundTargets.page,
      headers: { Vary: 'Accept' },
    });
    expect(await rules('/V1/TRIPS', 'text/markdown')).toMatchObject({
      kind: 'continue',
      pathname: notFoundTargets.markdown,
    });
    expect(await rules('/LLMS.TXT', 'text/markdown, text/html;q=0.9')).toMatchObject({
      kind: 'continue',
      pathname: notFoundTargets.markdown,
    });
    expect(await rules('/LLMS.TXT')).toMatchObject({ kind: 'continue', pathname: notFoundTargets.page });
    expect(await rules('/ENQUIRY-SENT', 'text/html')).toMatchObject({
      kind: 'continue',
      pathname: notFoundTargets.page,
    });
    // The right case is untouched, and so are the published files named with capitals.
    expect(await rules('/llms.txt')).toMatchObject({ kind: 'continue', pathname: '/llms.txt' });
    expect(await rules('/.well-known/agent-skills/check-departures/SKILL.md')).toMatchObject({
      kind: 'continue',
      pathname: '/.well-known/agent-skills/check-departures/SKILL.md',
    });
  });
});
