/**
 * The request rules as a list (service/rules/request-rules.ts): each rule the list names decides
 * its own case and passes every other on, and deciding is pure: the same request gives the same
 * outcome, with the same shared headers, and nothing of the request is changed. The whole rules
 * with counting are in rules-at-once.test.ts and wrong-case.test.ts; over HTTP in tests/http/.
 */
import { describe, expect, it } from 'vitest';
import { apiPath } from '../../service/http/api-path.ts';
import type { RulesOutcome } from '../../service/rules/index.ts';
import type { RateLimitDecision } from '../../service/rules/rate-limiter.ts';
import { decide, type RuleInput } from '../../service/rules/request-rules.ts';
import { securityKind } from '../../service/rules/rule-headers.ts';

const siteUrl = 'https://example.test';

function input(target: string, init: RequestInit = {}, decision: RateLimitDecision | null = null): RuleInput {
  const url = new URL(target, siteUrl);
  return Object.freeze({
    request: new Request(url, init),
    url,
    pathname: url.pathname,
    api: apiPath(url.pathname),
    decision,
    siteUrl,
    https: true,
    kind: securityKind(url.pathname, true),
  });
}

const onward = (outcome: RulesOutcome) => {
  if (outcome.kind !== 'continue') throw new Error(`expected to go on, got an answer ${outcome.response.status}`);
  return outcome;
};
const answer = (outcome: RulesOutcome) => {
  if (outcome.kind !== 'respond') throw new Error(`expected an answer, went on to ${outcome.pathname}`);
  return outcome;
};

const over: RateLimitDecision = { allowed: false, limit: 120, remaining: 0, resetSeconds: 42 };
const within: RateLimitDecision = { allowed: true, limit: 120, remaining: 7, resetSeconds: 42 };

describe('the request rules, in order', () => {
  it('quota: a client over its /v1 quota gets the one prepared 429, whatever it asked', () => {
    const first = answer(decide(input('/v1/trips', {}, over)));
    const second = answer(decide(input('/v1/nothing?x=1', { method: 'OPTIONS' }, over)));
    expect(first.prepared?.status).toBe(429);
    expect(second.prepared).toBe(first.prepared);
    expect(first.response.headers.get('Retry-After')).toBe('42');
  });

  it('CORS: a preflight of /v1 and of a published file is answered here, never handed on', () => {
    const preflight = { method: 'OPTIONS', headers: { 'Access-Control-Request-Method': 'GET' } };
    const api = answer(decide(input('/v1/trips', preflight, within))).response;
    expect(api.status).toBe(204);
    expect(api.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(api.headers.get('RateLimit-Remaining') ?? api.headers.get('X-RateLimit-Remaining')).toBe('7');
    const file = answer(decide(input('/llms.txt', preflight))).response;
    expect(file.status).toBe(204);
    expect(file.headers.get('Access-Control-Allow-Origin')).toBe('*');
    // An OPTIONS that names no method is no preflight: /v1 hands it to the function.
    expect(onward(decide(input('/v1/trips', { method: 'OPTIONS' }))).pathname).toBe('/v1/trips');
  });

  it('built file: a plain GET of a published /v1 answer goes to its file; anything else to the function', () => {
    expect(onward(decide(input('/v1/trips', {}, within))).pathname).toBe('/v1/trips.json');
    expect(onward(decide(input('/v1/trips/hampta-pass-trek', { method: 'HEAD' }))).pathname).toBe(
      '/v1/trips/hampta-pass-trek.json',
    );
    expect(onward(decide(input('/v1/trips?type=trek'))).pathname).toBe('/v1/trips');
    expect(onward(decide(input('/v1/trips', { headers: { Accept: 'text/html' } }))).pathname).toBe('/v1/trips');
    expect(onward(decide(input('/v1/departures'))).pathname).toBe('/v1/departures');
  });

  it('wrong case: a capital letter outside the built assets goes to the not-found answer Accept asks for', () => {
    expect(onward(decide(input('/Treks'))).pathname).toBe('/.not-found');
    expect(onward(decide(input('/Treks', { headers: { Accept: 'text/markdown' } }))).pathname).toBe('/.not-found.md');
    expect(onward(decide(input('/_astro/A.css'))).pathname).toBe('/_astro/A.css');
  });

  it('Markdown: a page asked for as text/markdown is its twin; as HTML, the page with Vary and its Link', () => {
    const twin = onward(decide(input('/treks/', { headers: { Accept: 'text/markdown' } })));
    expect(twin.pathname).toBe('/treks.md');
    expect(twin.headers.Vary).toBe('Accept');
    const page = onward(decide(input('/treks/')));
    expect(page.pathname).toBe('/treks');
    expect(page.headers.Link).toContain('</treks.md>; rel="alternate"');
  });

  it('any other path goes on as it is, with the security headers alone', () => {
    const other = onward(decide(input('/favicon.svg')));
    expect(other.pathname).toBe('/favicon.svg');
    expect(other.headers['X-Content-Type-Options']).toBe('nosniff');
    expect(other.headers.Vary).toBeUndefined();
  });

  it('is pure: the same request decides the same, with the same shared headers, and the input is left as it was', () => {
    for (const target of ['/', '/treks/hampta-pass-trek', '/llms.txt', '/v1/trips', '/v1/trips?type=trek', '/Nope']) {
      const a = onward(decide(input(target, {}, within)));
      const b = onward(decide(input(target, {}, within)));
      expect(b.pathname, target).toBe(a.pathname);
      expect(Object.entries(b.headers), target).toEqual(Object.entries(a.headers));
      if (!a.counted) expect(b.headers, target).toBe(a.headers);
      else expect(b.counted?.shared, target).toBe(a.counted.shared);
    }
  });
});
