/**
 * The request rules decided at once (applyRulesNow, what the Node host uses with its in-process
 * counter store) give exactly what the rules give later (applyRules, what Vercel's middleware
 * uses): the same outcome, headers in the same order, the same refusal over the quota, counted
 * once in the same window; and they decline, counting nothing, when the store is shared.
 */
import { describe, expect, it } from 'vitest';
import { applyRules, applyRulesNow, type RulesContext, type RulesOutcome } from '../../service/rules/index.ts';
import { apiRateLimit } from '../../service/rules/policy.ts';
import {
  createRateLimiter,
  MemoryCounterStore,
  type CounterStore,
  type WindowCount,
} from '../../service/rules/rate-limiter.ts';

const siteUrl = 'https://example.com';

function request(path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Request(`${siteUrl}${path}`, { method, headers: { 'x-real-ip': '203.0.113.7', ...headers } });
}

/** Two contexts over two stores on the same clock, so both count the same requests alike. */
function twins(now = () => 1_000_000): [RulesContext, RulesContext] {
  const make = (): RulesContext => ({
    siteUrl,
    apiLimiter: createRateLimiter(apiRateLimit, new MemoryCounterStore(), now),
    trustProxy: 'vercel',
  });
  return [make(), make()];
}

async function described(outcome: RulesOutcome | null) {
  if (!outcome) return null;
  if (outcome.kind === 'continue')
    return { kind: outcome.kind, pathname: outcome.pathname, headers: Object.entries(outcome.headers) };
  const response = outcome.response;
  return { kind: outcome.kind, status: response.status, headers: [...response.headers], body: await response.text() };
}

describe('the request rules decided at once', () => {
  const cases: [string, Record<string, string>, string?][] = [
    ['/', {}],
    ['/treks/hampta-pass-trek', { accept: 'text/markdown' }],
    ['/treks/', {}],
    ['/departures/block?trip=hampta-pass-trek', {}],
    ['/llms.txt', {}],
    ['/llms.txt', {}, 'OPTIONS'],
    ['/Treks', { accept: 'application/json' }],
    ['/v1/trips', {}],
    ['/v1/trips?type=trek', {}],
    ['/v1/peaks/bandarpunch', { accept: 'application/json' }],
    ['/v1/trips', { 'access-control-request-method': 'GET' }, 'OPTIONS'],
    ['/favicon.svg', {}],
  ];

  it('give the same outcome as the rules applied later, headers in the same order', async () => {
    const [now, later] = twins();
    for (const [path, headers, method] of cases) {
      const atOnce = await described(applyRulesNow(request(path, headers, method), now));
      expect(atOnce, path).not.toBeNull();
      expect(atOnce, path).toEqual(await described(await applyRules(request(path, headers, method), later)));
    }
  });

  it('refuse the 121st /v1 request with the same answer, made once per reset time and read by any number of readers', async () => {
    const [now, later] = twins();
    for (let i = 0; i < 120; i += 1) {
      expect(applyRulesNow(request('/v1/trips'), now)?.kind).toBe('continue');
      expect((await applyRules(request('/v1/trips'), later)).kind).toBe('continue');
    }
    const refused = applyRulesNow(request('/v1/trips'), now)!;
    const expected = await described(await applyRules(request('/v1/trips'), later));
    expect(expected).toMatchObject({ kind: 'respond', status: 429 });
    expect(await described(refused)).toEqual(expected);
    // Each reader gets a body of its own; the host writes the same bytes and headers as they are.
    expect(await described(refused)).toEqual(expected);
    if (refused.kind !== 'respond') throw new Error('expected a refusal');
    expect(refused.prepared?.body.toString()).toBe((expected as { body: string }).body);
    expect(refused.prepared?.headers).toEqual((expected as { headers: [string, string][] }).headers);
    const again = applyRulesNow(request('/v1/trips'), now)!;
    expect(again.kind === 'respond' && again.prepared).toBe(refused.prepared);
  });

  it('decline, counting nothing, when the counter store answers only later', async () => {
    let hits = 0;
    const shared: CounterStore = {
      hit: async (): Promise<WindowCount> => {
        hits += 1;
        return { count: 1, resetMs: 60_000 };
      },
    };
    const ctx: RulesContext = { siteUrl, apiLimiter: createRateLimiter(apiRateLimit, shared), trustProxy: 'vercel' };
    expect(applyRulesNow(request('/v1/trips'), ctx)).toBeNull();
    expect(hits).toBe(0);
    // Outside /v1 nothing is counted, so the rules are decided at once whatever the store.
    expect(applyRulesNow(request('/'), ctx)?.kind).toBe('continue');
    expect((await applyRules(request('/v1/trips'), ctx)).kind).toBe('continue');
    expect(hits).toBe(1);
  });

  it('share the headers of a page between its requests, and no request can change them', () => {
    const [ctx] = twins();
    const first = applyRulesNow(request('/'), ctx);
    const second = applyRulesNow(request('/'), ctx);
    if (first?.kind !== 'continue' || second?.kind !== 'continue') throw new Error('expected pages');
    expect(second.headers).toBe(first.headers);
    expect(Object.isFrozen(first.headers)).toBe(true);
  });
});
