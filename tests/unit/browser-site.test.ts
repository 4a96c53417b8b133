/**
 * The one reading of a request's browser headers (service/http/browser-site.ts): who sent it,
 * for every method and every combination of `Origin` and `Sec-Fetch-Site` a browser or a
 * program sends, against a site on a public name and one on loopback. The surfaces that call
 * it have their own tests: bookings (tests/bookings/origin.test.ts), the claim page
 * (tests/agent-auth/flows.test.ts, served.test.ts) and MCP (tests/agents/handler.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { isOwnOrigin, senderOf, type Sender } from '../../service/http/browser-site.ts';

const site = 'https://example.test';
const local = 'http://localhost:4321';

const sent = (method: string, headers: Record<string, string>, siteUrl = site): Sender =>
  senderOf(new Request(`${siteUrl}/x`, { method, headers, ...(method === 'POST' ? { body: '' } : {}) }), siteUrl);

describe('who sent a request', () => {
  it('Origin decides when it is there, whatever Sec-Fetch-Site says', () => {
    for (const method of ['GET', 'HEAD', 'POST']) {
      expect(sent(method, { Origin: site }), method).toBe('site');
      expect(sent(method, { Origin: site, 'Sec-Fetch-Site': 'same-origin' }), method).toBe('site');
      expect(sent(method, { Origin: 'https://evil.example' }), method).toBe('another-site');
      expect(sent(method, { Origin: 'null' }), method).toBe('another-site');
      // DNS rebinding: the browser says same-origin, since the page and the request share the rebound name.
      expect(sent(method, { Origin: 'https://rebind.example', 'Sec-Fetch-Site': 'same-origin' }), method).toBe(
        'another-site',
      );
    }
  });

  it('without Origin, a browser that says cross-site or same-site is another site, for every method', () => {
    for (const method of ['GET', 'HEAD', 'POST'])
      for (const fetchSite of ['cross-site', 'same-site'])
        expect(sent(method, { 'Sec-Fetch-Site': fetchSite }), `${method} ${fetchSite}`).toBe('another-site');
  });

  it('a POST without Origin is no web page (browsers send Origin with every POST): a program', () => {
    expect(sent('POST', {})).toBe('program');
    expect(sent('POST', { 'Sec-Fetch-Site': 'none' })).toBe('program');
    expect(sent('POST', { 'Sec-Fetch-Site': 'same-origin' })).toBe('program');
  });

  it("a GET or HEAD without Origin is the site's own page when it says same-origin, else no web page", () => {
    for (const method of ['GET', 'HEAD']) {
      expect(sent(method, { 'Sec-Fetch-Site': 'same-origin' }), method).toBe('site');
      expect(sent(method, { 'Sec-Fetch-Site': 'none' }), method).toBe('program');
      expect(sent(method, {}), method).toBe('program');
    }
  });

  it('a site on loopback is itself at its other loopback names, a public site only at its own origin', () => {
    for (const alias of ['http://127.0.0.1:4321', 'http://localhost:4321', 'http://[::1]:4321']) {
      expect(sent('POST', { Origin: alias }, local), alias).toBe('site');
      expect(isOwnOrigin(alias, local), alias).toBe(true);
    }
    for (const other of ['http://127.0.0.1:4322', 'https://localhost:4321', 'http://rebind.example:4321'])
      expect(sent('POST', { Origin: other }, local), other).toBe('another-site');
    expect(sent('POST', { Origin: 'http://127.0.0.1:4321' })).toBe('another-site');
    expect(isOwnOrigin('https://example.test:443', 'https://example.test/')).toBe(true);
  });
});
