/**
 * The enquiry endpoint and form in the built fixture site, served by server.ts as a real child
 * process: the Astro route, the trip page's form in real Chromium (with and without
 * JavaScript), and the enquiries command reaching the running server's embedded database.
 * TRUST_PROXY=vercel lets each test speak from its own client IP (x-real-ip), so the per-IP
 * enquiry limit of one test does not spill into another.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { projectRoot } from '../helpers/project.ts';
import { chromiumPath } from '../helpers/requirements.ts';
import { newDataDir } from '../helpers/embedded-template.ts';
import { axeViolations } from '../site/axe.ts';
import { stillPages } from '../site/site.ts';

let server: InProcessServer;
let dataDir: string;
let browser: Browser;
const valid = { tripSlug: 'sample-trek', name: 'Asha Rao', phone: '+91 98765 43210', groupSize: 3 };

beforeAll(async () => {
  dataDir = newDataDir('enquiries-site-');
  // With SITE_URL unset the site's origin is http://localhost:<port>: the plain form is accepted from there only.
  server = await startInProcess(inject('fixtureSite'), {
    DATA_DIR: dataDir,
    TRUST_PROXY: 'vercel',
    CONTACT_EMAIL: 'hello@example.test',
    SITE_URL: '',
  });
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const outbox = () => {
  try {
    return readdirSync(path.join(dataDir, 'outbox')).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
};

function postJson(body: unknown, ip: string): Promise<Response> {
  return fetch(`${server.url}/api/bookings`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'x-real-ip': ip },
    body: JSON.stringify(body),
  });
}

describe('POST /api/bookings on the running site', () => {
  it('takes an enquiry: 201, stored and in the outbox', async () => {
    const response = await postJson(valid, '192.0.2.1');
    expect(response.status).toBe(201);
    const body = (await response.json()) as { enquiry: { id: string; status: string } };
    expect(body.enquiry.status).toBe('received');
    expect(outbox()).toContain(`${body.enquiry.id}.eml`);
  });

  it('other methods: 405 with Allow: POST, as plain JSON', async () => {
    const response = await fetch(`${server.url}/api/bookings`, { headers: { 'x-real-ip': '192.0.2.2' } });
    expect(response.status).toBe(405);
    expect(response.headers.get('Allow')).toBe('POST');
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('method_not_allowed');
  });

  it('an oversize body sent in chunks (no Content-Length): 400 once the cap is passed', async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        `${server.url}/api/bookings`,
        { method: 'POST', headers: { 'Content-Type': 'application/json', 'x-real-ip': '192.0.2.3' } },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write(`{"tripSlug":"sample-trek","message":"`);
      for (let i = 0; i < 16; i += 1) req.write('x'.repeat(4096));
      req.end('"}');
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('too large');
  });

  it('5 enquiries per 10 minutes per IP, then 429 with Retry-After and no RateLimit headers; /v1 counts apart', async () => {
    const ip = '192.0.2.50';
    for (let i = 0; i < 5; i += 1) expect((await postJson({ ...valid, phone: 'x' }, ip)).status).toBe(400);
    const limited = await postJson(valid, ip);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(590);
    expect([...limited.headers.keys()].filter((n) => n.includes('ratelimit'))).toEqual([]);
    const api = await fetch(`${server.url}/v1/trips`, { headers: { 'x-real-ip': ip } });
    expect(api.status).toBe(200);
    expect(api.headers.get('RateLimit-Remaining')).toBe('119');
  });

  it("the enquiries command reads the running server's database", async () => {
    const child = spawn(process.execPath, [path.join(projectRoot, 'scripts', 'enquiries.ts'), 'list'], {
      cwd: projectRoot,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        DATA_DIR: dataDir,
        CONTACT_EMAIL: 'hello@example.test',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += String(d)));
    child.stderr.on('data', (d) => (output += String(d)));
    const status = await new Promise((resolve) => child.on('close', resolve));
    expect(output).toContain('Asha Rao');
    expect(status).toBe(0);
    // The server still answers from the same database afterwards.
    expect((await postJson(valid, '192.0.2.4')).status).toBe(201);
  });
});

describe('the enquiry form on a trip page', () => {
  it('is a real, labelled form with a hidden honeypot and a deferred same-origin script', async () => {
    const html = await (await fetch(`${server.url}/treks/sample-trek`)).text();
    const form = html.slice(
      html.indexOf('<form id="enquiry-form"'),
      html.indexOf('</form>', html.indexOf('<form id="enquiry-form"')),
    );
    expect(form).toMatch(/method="post"/);
    expect(form).toMatch(/action="\/api\/bookings"/);
    for (const field of ['name', 'phone', 'email', 'groupSize', 'preferredDeparture', 'message'])
      expect(form).toContain(`<label for="enquiry-${field}"`);
    expect(form).toMatch(/name="groupSize"[^>]*max="12"/);
    expect(form).toMatch(/name="email"[^>]*type="email"/);
    expect(form).toMatch(/<div class="trap[^"]*" aria-hidden="true"/);
    // A browser cuts pasted text at maxlength without a word: the one-line fields count with a
    // pattern instead; the message, a textarea (which takes no pattern), has one.
    expect(form.match(/maxlength="\d+"/g)).toEqual(['maxlength="2000"']);
    expect(form).toMatch(/name="name"[^>]*data-max-chars="100"/);
    expect(form).toMatch(/name="name"[^>]*required[^>]*pattern="[^"]+"/);
    expect(form).toMatch(/name="phone"[^>]*required[^>]*pattern="[^"]+"/);
    // Without JavaScript the server checks the form and names every refused field in its own
    // sentence, rather than the browser's bubble naming one at a time in its words.
    expect(form).toContain('novalidate');
    expect(html).toMatch(/<script src="\/enquiry\.js" defer><\/script>/);
    // Every field's check in the server's words, the seats of the chosen date and dates already
    // passed: still small as served (minified by the build), and deferred.
    const script = Buffer.from(await (await fetch(`${server.url}/enquiry.js`)).arrayBuffer());
    expect(gzipSync(script).byteLength).toBeLessThan(3072);
    expect(gzipSync(readFileSync(path.join(projectRoot, 'public', 'live-departures.js'))).byteLength).toBeLessThan(
      1024,
    );
  });

  it('with JavaScript: field errors inline, focus on the first, then the confirmation page', async () => {
    const context = await browser.newContext({ ...stillPages, extraHTTPHeaders: { 'x-real-ip': '192.0.2.10' } });
    const page = await context.newPage();
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) blocked.push(message.text());
    });
    await page.goto(`${server.url}/treks/sample-trek`);
    await page.fill('#enquiry-phone', 'call me');
    await page.fill('#enquiry-groupSize', '40');
    await page.click('#enquiry-form button[type=submit]');

    await expect.poll(() => page.getAttribute('#enquiry-name', 'aria-invalid')).toBe('true');
    expect(await page.getAttribute('#enquiry-phone', 'aria-invalid')).toBe('true');
    expect(await page.getAttribute('#enquiry-groupSize', 'aria-invalid')).toBe('true');
    expect(await page.textContent('#enquiry-groupSize-error')).toContain('from 1 to 12');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('enquiry-name');
    expect(await page.textContent('#enquiry-status')).toMatch(/3 fields need another look/);
    const description = await page.evaluate(() =>
      document.getElementById('enquiry-phone')?.getAttribute('aria-describedby'),
    );
    expect(description).toContain('enquiry-phone-error');

    const before = outbox().length;
    await page.fill('#enquiry-name', 'Meera Iyer');
    await page.fill('#enquiry-phone', '+91 99887 76655');
    await page.fill('#enquiry-groupSize', '2');
    await page.waitForSelector('[data-live-departures-for][data-loaded]');
    await page.selectOption('#enquiry-departure', 'other');
    await page.fill('#enquiry-preferredDeparture', 'Late June');
    expect((await axeViolations(page, { include: '#enquiry-form' })).map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    // Sent, it ends on the enquiry's confirmation page, as the plain form does.
    await Promise.all([
      page.waitForURL(/\/enquiry-sent\?ref=enq-\d{8}-[a-z2-9]{10}$/),
      page.click('#enquiry-form button[type=submit]'),
    ]);
    const main = (await page.textContent('main')) ?? '';
    expect(main).toContain(new URL(page.url()).searchParams.get('ref'));
    expect(main).toMatch(/within one working day.*Nothing is booked until then/s);
    expect(outbox().length).toBe(before + 1);
    expect((await axeViolations(page)).map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    expect(blocked).toEqual([]);
    await context.close();
  });

  it('by keyboard: every field in order, the honeypot never', async () => {
    const context = await browser.newContext({ ...stillPages, extraHTTPHeaders: { 'x-real-ip': '192.0.2.11' } });
    const page = await context.newPage();
    await page.goto(`${server.url}/treks/sample-trek`);
    await page.waitForSelector('[data-live-departures-for][data-loaded]');
    await page.focus('#enquiry-name');
    const order = [await page.evaluate(() => document.activeElement?.id)];
    for (let i = 0; i < 6; i += 1) {
      await page.keyboard.press('Tab');
      order.push(
        await page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName.toLowerCase()),
      );
    }
    // With the departures loaded the dates are a list; the free-text field appears only for other dates.
    expect(order).toEqual([
      'enquiry-name',
      'enquiry-phone',
      'enquiry-email',
      'enquiry-groupSize',
      'enquiry-departure',
      'enquiry-message',
      'button',
    ]);
    await context.close();
  });

  it('without JavaScript: the form posts, and lands on the thank-you page', async () => {
    // The browser's Origin must be the site's configured one (SITE_URL), not merely the address that reached the server.
    const site = `http://localhost:${server.port}`;
    const context = await browser.newContext({
      ...stillPages,
      javaScriptEnabled: false,
      extraHTTPHeaders: { 'x-real-ip': '192.0.2.12' },
    });
    const page = await context.newPage();
    await page.goto(`${site}/treks/sample-trek`);
    await page.fill('#enquiry-name', 'Ravi Kumar');
    await page.fill('#enquiry-phone', '098450 12345');
    await page.fill('#enquiry-groupSize', '5');
    await page.fill('#enquiry-message', 'Can we bring a dog? <no>');
    await Promise.all([
      page.waitForURL(/\/enquiry-sent\?ref=enq-\d{8}-[a-z2-9]{10}$/),
      page.click('#enquiry-form button[type=submit]'),
    ]);
    expect(await page.textContent('h1')).toContain('Thank you');
    expect(await page.textContent('main')).toContain('Nothing is booked until then');
    expect(await page.textContent('main')).toContain(new URL(page.url()).searchParams.get('ref'));
    const latest = outbox()
      .map((f) => readFileSync(path.join(dataDir, 'outbox', f), 'utf8'))
      .find((eml) => eml.includes('Ravi Kumar'));
    expect(latest).toContain('Can we bring a dog? <no>'); // text part as written
    expect(latest).toContain('Can we bring a dog? &lt;no&gt;'); // HTML part escaped

    // A refusal only the server can make: a direction control pasted into the name.
    await page.goto(`${site}/treks/sample-trek`);
    await page.fill('#enquiry-name', 'Ravi \u202EKumar');
    await page.fill('#enquiry-phone', '098450 12345');
    await page.fill('#enquiry-groupSize', '5');
    const [response] = await Promise.all([
      page.waitForResponse(`${site}/api/bookings`),
      page.click('#enquiry-form button[type=submit]'),
    ]);
    expect(response.status()).toBe(400);
    expect(await page.textContent('h1')).toBe('Your enquiry was not sent');
    expect(await page.textContent('#enquiry-name-error')).toContain(
      'Your name contains an invisible character (U+202E)',
    );
    expect(await page.inputValue('#enquiry-name')).toBe('Ravi \u202EKumar');
    await page.click('text=Back to Fixture Trek');
    expect(page.url()).toBe(`${site}/treks/sample-trek#enquiry-form`);
    // The same page under a name that is not the site's is refused: tests/bookings/origin.test.ts.
    await context.close();
  });
});
