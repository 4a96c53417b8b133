import { describe, expect, it } from 'vitest';
import { apiRateLimit, bookingRateLimit } from '../../service/rules/policy.ts';
import { createRateLimiter, MemoryCounterStore, rateLimitHeaders } from '../../service/rules/rate-limiter.ts';

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

  it('keeps a window open up to its last millisecond and opens the next at exactly 60 s', async () => {
    let now = 0;
    const limit = createRateLimiter({ ...apiRateLimit, requests: 2 }, new MemoryCounterStore(), () => now);
    expect(await limit('c')).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 60 });
    now = 59_999;
    expect(await limit('c')).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 1 });
    expect(await limit('c')).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 1 });
    now = 60_000;
    expect(await limit('c')).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 60 });
  });

  it('opens each client its own window at its first request, not on a shared clock', async () => {
    let now = 0;
    const limit = createRateLimiter({ ...apiRateLimit, requests: 1 }, new MemoryCounterStore(), () => now);
    await limit('early');
    now = 30_000;
    await limit('late');
    now = 60_000;
    expect((await limit('early')).allowed).toBe(true);
    expect(await limit('late')).toMatchObject({ allowed: false, resetSeconds: 30 });
  });

  it('rounds Retry-After up to whole seconds, never below 1', async () => {
    let now = 0;
    const limit = createRateLimiter({ ...apiRateLimit, requests: 1 }, new MemoryCounterStore(), () => now);
    await limit('r');
    for (const [at, seconds] of [
      [29_999, 31],
      [30_000, 30],
      [59_001, 1],
      [59_999, 1],
    ] as const) {
      now = at;
      const d = await limit('r');
      expect(d.resetSeconds, `at ${at} ms`).toBe(seconds);
      const headers = rateLimitHeaders(apiRateLimit, d);
      expect(headers['Retry-After']).toBe(String(seconds));
      expect(headers['RateLimit-Reset']).toBe(String(seconds));
    }
  });

  it('lets exactly the quota through when requests arrive concurrently', async () => {
    const limit = createRateLimiter(apiRateLimit, new MemoryCounterStore(), () => 0);
    const decisions = await Promise.all(Array.from({ length: 150 }, () => limit('burst')));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(120);
    const remaining = decisions.filter((d) => d.allowed).map((d) => d.remaining);
    expect(new Set(remaining).size).toBe(120);
  });

  it('counts clients separately', async () => {
    const limit = createRateLimiter({ ...apiRateLimit, requests: 1 }, new MemoryCounterStore(), () => 0);
    expect((await limit('a')).allowed).toBe(true);
    expect((await limit('a')).allowed).toBe(false);
    expect((await limit('b')).allowed).toBe(true);
  });

  it('keeps the counts of two policies apart in one store', async () => {
    const store = new MemoryCounterStore();
    const api = createRateLimiter(apiRateLimit, store, () => 0);
    const bookings = createRateLimiter(bookingRateLimit, store, () => 0);
    for (let i = 0; i < 5; i += 1) await bookings('same-client');
    expect((await bookings('same-client')).allowed).toBe(false);
    expect(await api('same-client')).toMatchObject({ allowed: true, remaining: 119 });
    expect(await bookings('other')).toMatchObject({ allowed: true, remaining: 4, resetSeconds: 600 });
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

  it('reports an exhausted window with Retry-After equal to the reset', async () => {
    const limit = createRateLimiter({ ...apiRateLimit, requests: 1 }, new MemoryCounterStore(), () => 0);
    await limit('y');
    const headers = rateLimitHeaders(apiRateLimit, await limit('y'));
    expect(headers).toMatchObject({ 'RateLimit-Remaining': '0', RateLimit: '"default";r=0;t=60', 'Retry-After': '60' });
  });

  it('while the shared store fails, counts a policy in the process, or throws for one that says open (the API)', async () => {
    let failing = true;
    const shared = new MemoryCounterStore();
    const store = {
      hit: (...args: Parameters<MemoryCounterStore['hit']>) =>
        failing ? Promise.reject(new Error('store down')) : shared.hit(...args),
    };
    const enquiries = createRateLimiter(bookingRateLimit, store, () => 0);
    const decisions = [];
    for (let i = 0; i < 7; i += 1) decisions.push((await enquiries('203.0.113.5')).allowed);
    expect(decisions).toEqual([true, true, true, true, true, false, false]);
    expect((await enquiries('203.0.113.6')).allowed).toBe(true);
    await expect(createRateLimiter(apiRateLimit, store)('203.0.113.5')).rejects.toThrow('store down');
    // The store back: counts are its own again.
    failing = false;
    expect(await enquiries('203.0.113.5')).toMatchObject({ allowed: true, remaining: 4 });
  });
});
