/**
 * What the Node host answers to request heads no browser of ours sends, over a raw socket:
 *   - a path that starts with two slashes (or a slash and a backslash) and ends like a page's
 *     `.html` or `index` address: the clean-URL redirect keeps it on the site, never
 *     `Location: //evil.example/…`, which a browser reads as another host; and in Chromium such
 *     an address does not leave the site;
 *   - a request without Host, or with two: 400 in a sentence, with the security headers every
 *     answer carries, and the connection closed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { securityHeaders } from '../../service/rules/security-headers.ts';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { launchChromium } from '../site/site.ts';
import { rawExchange, serialize, type RawResponse } from './raw-http.ts';

let server: InProcessServer;
beforeAll(async () => {
  server = await startInProcess(inject('fixtureSite'), { OPERATIONAL_STORAGE: 'off' });
});
afterAll(() => server?.stop());

let client = 0;

/** One raw request from a loopback address of its own, so the quota never gets in the way. */
async function send(
  method: string,
  target: string,
  headers: [string, string][],
  version = '1.1',
): Promise<RawResponse & { closed: boolean }> {
  client += 1;
  const head = serialize(
    method,
    target,
    headers.some(([name]) => name.toLowerCase() === 'connection') ? headers : [...headers, ['Connection', 'close']],
  );
  const bytes =
    version === '1.1'
      ? head
      : Buffer.from(head.toString('latin1').replace(' HTTP/1.1\r\n', ` HTTP/${version}\r\n`), 'latin1');
  const exchange = await rawExchange(bytes, {
    port: server.port,
    localAddress: `127.0.9.${(client % 250) + 1}`,
    untilClose: true,
    timeoutMs: 5000,
  });
  const response = exchange.responses[0];
  if (!response) throw new Error(`${target}: no response (${exchange.leftover.toString('latin1').slice(0, 200)})`);
  return { ...response, closed: exchange.closed };
}

const host = (): [string, string] => ['Host', `127.0.0.1:${server.port}`];

/** Where a browser on the site goes with this Location: its origin must stay the site's. */
function leavesTheSite(location: string): boolean {
  const site = 'http://site.example';
  return new URL(location, `${site}/somewhere/page`).origin !== site;
}

describe('clean-URL redirects stay on the site', () => {
  it('never send a browser to another host, however the path starts', async () => {
    for (const path of [
      '//evil.example/x.html',
      '/\\evil.example/x.html',
      '///evil.example/index.html',
      '//evil.example/index',
      '/\\/evil.example/a/index.html/',
      '//evil.example',
      '//evil.example/x.html?to=1',
    ]) {
      const response = await send('GET', path, [host()]);
      const location = response.headers.get('location');
      if (location !== undefined) expect(leavesTheSite(location), `${path} → ${location}`).toBe(false);
      expect([308, 404], path).toContain(response.status);
    }
    // The redirect of //evil.example/x.html is the clean URL of /evil.example/x.html: a page of this site (none here).
    expect((await send('GET', '//evil.example/x.html', [host()])).headers.get('location')).toBe('/evil.example/x');
  });

  it('holds for any mix of slashes, backslashes and segments (fast-check)', async () => {
    const lead = fc.constantFrom('//', '/\\', '///', '/\\\\', '//\\', '/%2F', '/./', '/../');
    const segment = fc.constantFrom(
      'evil.example',
      'evil.example:8080',
      'a',
      'treks',
      'index',
      '@evil.example',
      '%2F',
      '..',
      '.',
    );
    const end = fc.constantFrom('.html', '.html/', '/index', '/index.html', '/index/', '');
    const paths = fc
      .tuple(lead, fc.array(segment, { minLength: 1, maxLength: 3 }), end)
      .map(([l, s, e]) => `${l}${s.join('/')}${e}`);
    await fc.assert(
      fc.asyncProperty(paths, async (path) => {
        const response = await send('GET', path, [host()]);
        const location = response.headers.get('location');
        expect(location === undefined || !leavesTheSite(location), `${path} → ${location}`).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('still gives pages their clean URLs', async () => {
    expect((await send('GET', '/treks.html', [host()])).headers.get('location')).toBe('/treks');
    expect((await send('GET', '/index.html', [host()])).headers.get('location')).toBe('/');
    expect((await send('GET', '/treks/sample-trek/index', [host()])).headers.get('location')).toBe(
      '/treks/sample-trek',
    );
  });

  describe('in Chromium', () => {
    let browser: Browser;
    let elsewhere: Server;
    const visits: string[] = [];
    beforeAll(async () => {
      // evil.example, as Chromium resolves it here: a server of its own on loopback, which counts its visitors.
      elsewhere = createServer((req, res) => {
        // The browser's own request for an icon is not a visit.
        if (req.url !== '/favicon.ico') visits.push(req.url ?? '');
        res.writeHead(200, { 'Content-Type': 'text/html' }).end('<h1>Another site</h1>');
      });
      await new Promise<void>((done) => elsewhere.listen(0, '127.0.0.1', done));
      browser = await launchChromium([
        `--host-resolver-rules=MAP evil.example 127.0.0.1:${(elsewhere.address() as AddressInfo).port}`,
      ]);
    });
    afterAll(async () => {
      await browser?.close();
      elsewhere?.close();
    });

    it('an address of the site that starts with two slashes does not lead to another site', async () => {
      const page = await browser.newPage();
      try {
        // The mapping works: a link to evil.example reaches the other server.
        await page.goto('http://evil.example/check');
        expect(visits).toEqual(['/check']);
        for (const path of ['//evil.example/x.html', '/\\evil.example/x.html', '///evil.example/index.html']) {
          const response = await page.goto(`${server.url}${path}`);
          expect(new URL(page.url()).host, path).toBe(`127.0.0.1:${server.port}`);
          expect(response?.status(), path).toBe(404);
        }
        expect(visits).toEqual(['/check']);
      } finally {
        await page.close();
      }
    });
  });
});

describe('requests that do not name their host once', () => {
  const expected = securityHeaders({ https: false });

  function refused(response: RawResponse & { closed: boolean }, sentence: RegExp): void {
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.body.toString()).toMatch(sentence);
    for (const [name, value] of Object.entries(expected))
      expect(response.headers.get(name.toLowerCase()), name).toBe(value);
    expect(response.headers.get('connection')).toBe('close');
    expect(response.closed).toBe(true);
  }

  it('answers 400 with the security headers to an HTTP/1.1 request without Host', async () => {
    for (const path of ['/', '/treks', '/v1/trips', '/api/bookings'])
      refused(await send('GET', path, []), /requires a Host header/);
    refused(await send('GET', '/', [['Host', '']]), /requires a Host header/);
  });

  it('answers 400 with the security headers to a request with two Host headers, and does not count it', async () => {
    for (const path of ['/', '/v1/trips', '/departures']) {
      refused(await send('GET', path, [host(), ['Host', 'evil.example']]), /more than once/);
      refused(await send('GET', path, [['Host', 'evil.example'], host()]), /more than once/);
    }
    refused(await send('GET', '/', [host(), ['host', `127.0.0.1:${server.port}`]], '1.0'), /more than once/);
    // Refused before the rules: the /v1 quota of this address is untouched.
    client += 1;
    const address = `127.0.9.${(client % 250) + 1}`;
    for (let i = 0; i < 3; i += 1)
      await rawExchange(serialize('GET', '/v1/trips', [host(), ['Host', 'x'], ['Connection', 'close']]), {
        port: server.port,
        localAddress: address,
        untilClose: true,
      });
    const counted = await rawExchange(serialize('GET', '/v1/trips', [host(), ['Connection', 'close']]), {
      port: server.port,
      localAddress: address,
      untilClose: true,
    });
    expect(counted.responses[0]?.headers.get('ratelimit-remaining')).toBe('119');
  });

  it('serves an HTTP/1.0 request without Host, and a request with one', async () => {
    expect((await send('GET', '/treks', [], '1.0')).status).toBe(200);
    expect((await send('GET', '/treks', [host()])).status).toBe(200);
  });
});
