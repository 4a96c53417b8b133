/**
 * The contract caps the departures cache at 60 seconds in all. The policy spends the minute on
 * the storage read that answers, a shared cache and the browser (service/http/respond.ts); this
 * adds it up from the header itself, so a new value that breaks the cap fails here.
 */
import { describe, expect, it } from 'vitest';
import { readSettings, SettingsError } from '../../service/config.ts';
import { cachePolicy, departuresReadMaxAgeMs } from '../../service/http/cache-policy.ts';

function directive(policy: string, name: string): number {
  const match = new RegExp(`(?:^|,)\\s*${name}=(\\d+)`).exec(policy);
  return match ? Number(match[1]) : 0;
}

describe('the departures cache policy', () => {
  const policy = cachePolicy.departures;
  const maxAge = directive(policy, 'max-age');
  const shared = directive(policy, 's-maxage');
  const stale = directive(policy, 'stale-while-revalidate');

  it('keeps the oldest answer any cache may show, plus the read it came from, within 60 s', () => {
    // A browser shows a kept answer until it is max-age + stale-while-revalidate old, counting the
    // Age a shared cache gives it; a shared cache alone, s-maxage + stale-while-revalidate.
    const oldestShown = Math.max(maxAge, shared) + stale;
    // An Age rounded down to whole seconds can hide under a second of a shared cache's time.
    expect(departuresReadMaxAgeMs / 1000 + oldestShown + 1).toBeLessThanOrEqual(60);
    expect(policy).toMatch(/^public, /);
  });

  it('lets no setting make the read older than the policy allows for', () => {
    expect(readSettings({}).DEPARTURES_FRESH_MS).toBe(departuresReadMaxAgeMs);
    expect(readSettings({ DEPARTURES_FRESH_MS: '0' }).DEPARTURES_FRESH_MS).toBe(0);
    expect(() => readSettings({ DEPARTURES_FRESH_MS: String(departuresReadMaxAgeMs + 1) })).toThrow(SettingsError);
  });
});
