/** Client identity for the quota: which address counts, and under which key. */
import { describe, expect, it } from 'vitest';
import { clientIp, clientQuotaKey } from '../../service/rules/client-ip.ts';
import { isApiPath } from '../../service/rules/index.ts';

const spoofed = new Request('http://x/v1/', {
  headers: { 'X-Forwarded-For': '198.51.100.1', 'X-Real-IP': '198.51.100.2', 'X-Vercel-Forwarded-For': '198.51.100.3' },
});

describe('client identity', () => {
  it('uses the socket address unless the deployment says it is behind Vercel', () => {
    expect(clientIp(spoofed, 'none', '203.0.113.7')).toBe('203.0.113.7');
    expect(clientIp(spoofed, 'none', '::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientIp(new Request('http://x/'), 'none', undefined)).toBe('unknown');
  });

  it("behind Vercel uses Vercel's client-IP header, and ignores one that is not an address", () => {
    expect(clientIp(spoofed, 'vercel', '10.0.0.1')).toBe('198.51.100.2');
    const vercelOnly = new Request('http://x/', { headers: { 'X-Vercel-Forwarded-For': '2001:db8::1, 10.0.0.1' } });
    expect(clientIp(vercelOnly, 'vercel', '10.0.0.1')).toBe('2001:db8::1');
    const garbage = new Request('http://x/', { headers: { 'X-Real-IP': 'not-an-ip' } });
    expect(clientIp(garbage, 'vercel', '10.0.0.1')).toBe('10.0.0.1');
  });

  it('counts IPv4 by address and IPv6 by its /64 network', () => {
    expect(clientQuotaKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientQuotaKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientQuotaKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientQuotaKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientQuotaKey('::1')).toBe('0:0:0:0::/64');
    expect(clientQuotaKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientQuotaKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientQuotaKey('::ffff:cb00:7107')).toBe('203.0.113.7');
    expect(clientQuotaKey('unknown')).toBe('unknown');
    expect(clientQuotaKey('1::2::3')).toBe('1::2::3');
  });
});

describe('which paths count against the /v1 quota', () => {
  it('counts /v1 however the path is spelled, and nothing else', () => {
    for (const path of ['/v1', '/v1/', '/v1/trips', '/%761/trips', '//v1/trips', '/v1%2Ftrips'])
      expect(isApiPath(path), path).toBe(true);
    for (const path of ['/', '/v10/trips', '/v1.md', '/api/bookings', '/developers', '/%zz/v1'])
      expect(isApiPath(path), path).toBe(false);
  });
});
