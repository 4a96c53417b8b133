import { describe, expect, it } from 'vitest';
import { apiRateLimit } from '../../api/rules/policy.ts';
import { createRateLimiter, MemoryCounterStore, rateLimitHeaders } from '../../api/rules/rate-limiter.ts';

describe('rate limiter (fixed window, injected clock)', () => {
  it('allows the quota, refuses the next request, and restores the quota in a new window', async () => {
    let now = 1_000_000;
    const limit = createRateLimiter(apiRateLimit, new MemoryCounterStore(), () => now);
    for (let i = 1; i <= 120; i += 1) {
      const d = await limit('203.0.113.9');
      expect(d.allowed).toBe(true);
      expect(d.remaining).toBe(120 - i);
    }
    now += 59_500;
    const over = await limit('203.0.113.9');
    expect(over).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 1 });
    expect(rateLimitHeaders(apiRateLimit, over)['Retry-After']).toBe('1');
    now += 500;
    expect(await limit('203.0.113.9')).toMatchObject({ allowed: true, remaining: 119, resetSeconds: 60 });
  });

  it('counts clients separately', async () => {
    const limit = createRateLimiter({ ...apiRateLimit, requests: 1 }, new MemoryCounterStore(), () => 0);
    expect((await limit('a')).allowed).toBe(true);
    expect((await limit('a')).allowed).toBe(false);
    expect((await limit('b')).allowed).toBe(true);
  });

  it('reports the contract headers and the current draft field', async () => {
    const limit = createRateLimiter(apiRateLimit, new MemoryCounterStore(), () => 0);
    const headers = rateLimitHeaders(apiRateLimit, await limit('x'));
    expect(headers).toMatchObject({
      'RateLimit-Policy': '120;w=60',
      'RateLimit-Limit': '120',
      'RateLimit-Remaining': '119',
      'RateLimit-Reset': '60',
      RateLimit: '"default";r=119;t=60',
      'X-RateLimit-Limit': '120',
      'X-RateLimit-Remaining': '119',
      'X-RateLimit-Reset': '60',
    });
    expect(headers['Retry-After']).toBeUndefined();
  });
});
