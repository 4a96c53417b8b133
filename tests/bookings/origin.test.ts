/**
 * Enquiries are taken from the site's own pages (SITE_URL, or another loopback name of a site on
 * loopback) and from programs that are not web pages; a page of another site, or of a name an
 * attacker points at this server (DNS rebinding), is refused in any format, and such refusals
 * never count against the visitor's enquiry quota. First as a function of (Request, deps), then
 * in Chromium against the running site, with rebind.example and attacker.example resolved to
 * loopback as an attacker's DNS would.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { handleBookingEnquiry, type BookingDeps } from '../../service/bookings/index.ts';
import { mailerFromSettings } from '../../service/bookings/mailer.ts';
import { EnquiryStore } from '../../service/bookings/store.ts';
import { readSettings } from '../../service/config.ts';
import type { Sql } from '../../service/storage/sql.ts';
import { bookingRateLimit } from '../../service/rules/policy.ts';
import { createRateLimiter, MemoryCounterStore } from '../../service/rules/rate-limiter.ts';
import { isOwnOrigin } from '../../service/http/browser-site.ts';
import { loadCatalogue } from '../helpers/content.ts';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { launchChromium, stillPages } from '../site/site.ts';
import { barePage } from './page-writer.ts';
import { freshDatabase, newDataDir } from '../helpers/embedded-template.ts';

const valid = { tripSlug: 'sample-trek', name: 'Asha Rao', phone: '+91 98765 43210', groupSize: 4 };

describe('whose pages count as the site', () => {
  it('the configured origin, and other loopback names only for a site on loopback', () => {
    expect(isOwnOrigin('https://example.com', 'https://example.com')).toBe(true);
    expect(isOwnOrigin('https://example.com:443', 'https://example.com/')).toBe(true);
    for (const other of [
      'http://example.com',
      'https://www.example.com',
      'https://example.com.evil.example',
      'http://127.0.0.1',
      'http://localhost',
      'null',
      '',
      'not a url',
    ]) {
      expect(isOwnOrigin(other, 'https://example.com'), other).toBe(false);
    }
    for (const alias of ['http://127.0.0.1:4321', 'http://localhost:4321', 'http://[::1]:4321'])
      expect(isOwnOrigin(alias, 'http://localhost:4321'), alias).toBe(true);
    for (const other of [
      'http://127.0.0.1:4322',
      'https://localhost:4321',
      'http://127.0.0.2:4321',
      'http://rebind.example:4321',
      'http://localhost.evil.example:4321',
      'http://0.0.0.0:4321',
    ]) {
      expect(isOwnOrigin(other, 'http://localhost:4321'), other).toBe(false);
    }
  });
});

describe('POST /api/bookings from elsewhere', () => {
  const catalogue = loadCatalogue(undefined, 'http://localhost:4321');
  let sql: Sql;
  let enquiries: EnquiryStore;
  let dataDir: string;
  beforeAll(async () => {
    sql = await freshDatabase();
    enquiries = new EnquiryStore(sql);
    await enquiries.ready();
  });
  afterAll(() => sql?.close());
  beforeEach(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'enquiries-origin-'));
    await sql.query('DELETE FROM enquiries');
    return () => rmSync(dataDir, { recursive: true, force: true });
  });

  const deps = (overrides: Partial<BookingDeps> = {}): BookingDeps => ({
    catalogue,
    enquiries,
    mailer: mailerFromSettings(readSettings({ DATA_DIR: dataDir }), { contactEmail: catalogue.site.contactEmail }),
    limiter: null,
    departures: null,
    clock: () => new Date('2026-11-22T04:30:00Z'),
    page: barePage,
    ...overrides,
  });
  const request = (url: string, type: string, body: string, headers: Record<string, string> = {}) =>
    new Request(url, { method: 'POST', body, headers: { 'Content-Type': type, ...headers } });
  const json = JSON.stringify(valid);
  const form = new URLSearchParams({ ...valid, groupSize: '4' }).toString();

  it('refuses JSON sent under a rebound host name with a matching Origin: 403, nothing stored', async () => {
    const rebound = request('http://rebind.example:4321/api/bookings', 'application/json', json, {
      Origin: 'http://rebind.example:4321',
      Host: 'rebind.example:4321',
    });
    const response = await handleBookingEnquiry(rebound, deps(), { clientIp: '203.0.113.20' });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('cross_site_form');
    expect(await enquiries.list()).toEqual([]);
  });

  it('refuses a page of another site in every format, and a browser that says so without Origin', async () => {
    const cases: [string, string, Record<string, string>][] = [
      ['application/json', json, { Origin: 'https://evil.example' }],
      ['application/x-www-form-urlencoded', form, { Origin: 'https://evil.example' }],
      ['text/plain', json, { Origin: 'https://evil.example' }],
      ['application/json', json, { Origin: 'null' }],
      ['application/json', json, { 'Sec-Fetch-Site': 'cross-site' }],
      ['application/x-www-form-urlencoded', form, { 'Sec-Fetch-Site': 'same-site' }],
    ];
    for (const [type, body, headers] of cases) {
      const response = await handleBookingEnquiry(
        request('http://localhost:4321/api/bookings', type, body, headers),
        deps(),
        { clientIp: '203.0.113.21' },
      );
      expect(response.status, `${type} ${JSON.stringify(headers)}`).toBe(403);
    }
    expect(await enquiries.list()).toEqual([]);
  });

  it('takes the site own pages, its loopback names, and programs that send no Origin', async () => {
    const cases: Record<string, string>[] = [
      { Origin: 'http://localhost:4321' },
      { Origin: 'http://127.0.0.1:4321', 'Sec-Fetch-Site': 'same-origin' },
      {},
      { 'Sec-Fetch-Site': 'none' },
      // No browser sends a POST without Origin: a program's, whatever else it says (service/http/browser-site.ts).
      { 'Sec-Fetch-Site': 'same-origin' },
    ];
    for (const headers of cases) {
      const response = await handleBookingEnquiry(
        request('http://127.0.0.1:4321/api/bookings', 'application/json', json, headers),
        deps(),
        { clientIp: '203.0.113.22' },
      );
      expect(response.status, JSON.stringify(headers)).toBe(201);
    }
  });

  it('a public site takes no loopback name: only its own origin', async () => {
    const publicSite = { ...deps(), catalogue: loadCatalogue(undefined, 'https://example.test') };
    const response = await handleBookingEnquiry(
      request('http://127.0.0.1:4321/api/bookings', 'application/json', json, { Origin: 'http://127.0.0.1:4321' }),
      publicSite,
      { clientIp: '203.0.113.23' },
    );
    expect(response.status).toBe(403);
  });

  it('counts no refusal a third party can cause: after five cross-site posts the visitor still has all five enquiries', async () => {
    const limiter = createRateLimiter(bookingRateLimit, new MemoryCounterStore());
    const visitor = { clientIp: '203.0.113.24' };
    for (let i = 0; i < 5; i += 1) {
      const refused = await handleBookingEnquiry(
        request('http://localhost:4321/api/bookings', 'application/x-www-form-urlencoded', form, {
          Origin: 'https://evil.example',
        }),
        deps({ limiter }),
        visitor,
      );
      expect(refused.status).toBe(403);
    }
    for (let i = 0; i < 5; i += 1) {
      const own = await handleBookingEnquiry(
        request('http://localhost:4321/api/bookings', 'application/json', json, { Origin: 'http://localhost:4321' }),
        deps({ limiter }),
        visitor,
      );
      expect(own.status, `enquiry ${i + 1}`).toBe(201);
    }
    // The sixth of the visitor's own is the one the quota refuses.
    expect(
      (
        await handleBookingEnquiry(
          request('http://localhost:4321/api/bookings', 'application/json', json),
          deps({ limiter }),
          visitor,
        )
      ).status,
    ).toBe(429);
  });
});

describe('in Chromium, against the running site', () => {
  let server: InProcessServer;
  let attacker: Server;
  let attackerPort = 0;
  let browser: Browser;
  let dataDir: string;
  const outbox = () => {
    try {
      return readdirSync(path.join(dataDir, 'outbox')).filter((f) => f.endsWith('.eml')).length;
    } catch {
      return 0;
    }
  };

  beforeAll(async () => {
    dataDir = newDataDir('enquiries-rebind-');
    // SITE_URL unset: the site's origin is http://localhost:<port>. TRUST_PROXY=vercel: each test speaks from its own address (x-real-ip).
    server = await startInProcess(inject('fixtureSite'), {
      DATA_DIR: dataDir,
      TRUST_PROXY: 'vercel',
      SITE_URL: '',
      CONTACT_EMAIL: 'hello@example.test',
    });
    // Another site's page, which posts to the site in the background when it loads.
    attacker = createServer((_req, res) => {
      const target = `http://localhost:${server.port}/api/bookings`;
      const body = new URLSearchParams({ ...valid, groupSize: '4' }).toString();
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(`<!doctype html><title>Cheap treks</title><p id="sent">0</p><script>
        (async () => {
          for (let i = 1; i <= 5; i += 1) {
            await fetch(${JSON.stringify(target)}, { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: ${JSON.stringify(body)} }).catch(() => {});
            document.getElementById('sent').textContent = String(i);
          }
        })();
      </script>`);
    });
    await new Promise<void>((done) => attacker.listen(0, '127.0.0.1', done));
    attackerPort = (attacker.address() as AddressInfo).port;
    // What an attacker's DNS does: its names resolve to this machine.
    browser = await launchChromium([
      '--host-resolver-rules=MAP rebind.example 127.0.0.1, MAP attacker.example 127.0.0.1',
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    attacker?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function fillForm(page: Page): Promise<void> {
    await page.fill('#enquiry-name', 'Ravi Kumar');
    await page.fill('#enquiry-phone', '098450 12345');
    await page.fill('#enquiry-groupSize', '2');
  }

  it('the site reached under a rebound name sends no enquiry, with JavaScript (JSON) or without (the plain form)', async () => {
    const before = outbox();
    for (const javaScriptEnabled of [true, false]) {
      const context = await browser.newContext({
        ...stillPages,
        javaScriptEnabled,
        extraHTTPHeaders: { 'x-real-ip': '192.0.2.40' },
      });
      const page = await context.newPage();
      await page.goto(`http://rebind.example:${server.port}/treks/sample-trek`);
      await fillForm(page);
      const [response] = await Promise.all([
        page.waitForResponse(`http://rebind.example:${server.port}/api/bookings`),
        page.click('#enquiry-form button[type=submit]'),
      ]);
      expect(response.status(), `JavaScript ${javaScriptEnabled ? 'on' : 'off'}`).toBe(403);
      if (javaScriptEnabled) {
        // The script the rebound page runs, as an attacker would write it: a JSON post with its own Origin and Host.
        const status = await page.evaluate(
          async (body) =>
            (await fetch('/api/bookings', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body }))
              .status,
          JSON.stringify(valid),
        );
        expect(status).toBe(403);
      }
      await context.close();
    }
    expect(outbox()).toBe(before);
  });

  it('the site under another loopback name (127.0.0.1 for localhost) is the site: its form sends', async () => {
    const context = await browser.newContext({
      ...stillPages,
      javaScriptEnabled: false,
      extraHTTPHeaders: { 'x-real-ip': '192.0.2.41' },
    });
    const page = await context.newPage();
    await page.goto(`${server.url}/treks/sample-trek`);
    await fillForm(page);
    await Promise.all([page.waitForURL(/\/enquiry-sent\?ref=/), page.click('#enquiry-form button[type=submit]')]);
    expect(await page.textContent('h1')).toContain('Thank you');
    await context.close();
  });

  it("another site's page posting five times in the background leaves the visitor's five enquiries", async () => {
    const context = await browser.newContext({ ...stillPages, extraHTTPHeaders: { 'x-real-ip': '192.0.2.42' } });
    const page = await context.newPage();
    await page.goto(`http://attacker.example:${attackerPort}/`);
    await page.waitForFunction(() => document.getElementById('sent')?.textContent === '5');
    await page.goto(`http://localhost:${server.port}/treks/sample-trek`);
    await fillForm(page);
    const [response] = await Promise.all([
      page.waitForResponse(`http://localhost:${server.port}/api/bookings`),
      page.click('#enquiry-form button[type=submit]'),
    ]);
    expect(response.status()).toBe(201);
    await context.close();
  });
});
