/**
 * Security headers on every HTML response of the local server, and a Content-Security-Policy
 * the pages actually satisfy: each page loads in Chromium without a CSP violation or a console
 * error, and any inline script is allowed by its hash, never by 'unsafe-inline'.
 * Strict-Transport-Security is sent when the site's public origin (SITE_URL) is https, and only then.
 */
import { createHash } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { launchChromium } from '../site/site.ts';

/** Every kind of HTML page: static, on demand, the 404, the claim page and the enquiry thank-you page. */
const pages: { path: string; status: number }[] = [
  { path: '/', status: 200 },
  { path: '/treks', status: 200 },
  { path: '/expeditions', status: 200 },
  { path: '/treks/sample-trek', status: 200 },
  { path: '/expeditions/sample-expedition', status: 200 },
  { path: '/departures', status: 200 },
  { path: '/developers', status: 200 },
  { path: '/peak-data/', status: 200 },
  { path: '/no-such-page', status: 404 },
  { path: '/agent/claim', status: 200 },
  { path: '/enquiry-sent', status: 200 },
  { path: '/departures?month=2099-01&type=trek', status: 200 },
  { path: '/treks/sample-trek/enquire', status: 200 },
  { path: '/departures/block?trip=sample-trek', status: 200 },
];

/** The only answers a page may frame, and only a page of the site itself. */
const framable = (path: string) => path.startsWith('/departures/block');

let server: InProcessServer;
let https: InProcessServer;
let browser: Browser;

beforeAll(async () => {
  const site = inject('fixtureSite');
  [server, https, browser] = await Promise.all([
    startInProcess(site),
    startInProcess(site, { SITE_URL: 'https://example.test', OPERATIONAL_STORAGE: 'off' }),
    launchChromium(),
  ]);
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await Promise.all([server?.stop(), https?.stop()]);
});

function directives(policy: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), values);
  }
  return map;
}

/** Problems of a response's headers and markup against the policy the site promises. */
function problemsOf(path: string, headers: Headers, html: string): string[] {
  const problems: string[] = [];
  const policy = headers.get('content-security-policy');
  if (!policy) return [`${path}: no Content-Security-Policy`];
  const csp = directives(policy);
  const expectExactly = (name: string, values: string[]) => {
    if (JSON.stringify(csp.get(name)) !== JSON.stringify(values))
      problems.push(`${path}: ${name} is ${JSON.stringify(csp.get(name))}, expected ${values.join(' ')}`);
  };
  expectExactly('default-src', ["'self'"]);
  expectExactly('object-src', ["'none'"]);
  expectExactly('frame-ancestors', framable(path) ? ["'self'"] : ["'none'"]);
  const frameOptions = framable(path) ? 'SAMEORIGIN' : 'DENY';
  if (headers.get('x-frame-options') !== frameOptions)
    problems.push(`${path}: X-Frame-Options is ${headers.get('x-frame-options')}, expected ${frameOptions}`);
  expectExactly('base-uri', ["'self'"]);
  expectExactly('form-action', ["'self'"]);
  const scriptSources = csp.get('script-src') ?? csp.get('default-src') ?? [];
  for (const source of [...scriptSources, ...(csp.get('style-src') ?? [])]) {
    if (source !== "'self'" && !/^'sha(256|384|512)-[A-Za-z0-9+/=]+'$/.test(source))
      problems.push(`${path}: script or style source ${source} is not 'self' or a hash`);
  }
  // Inline scripts run only by their hash; data blocks (JSON-LD) are not scripts to the browser.
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const [, attributes = '', body = ''] = match;
    if (/\bsrc=/.test(attributes) || /type=["']?application\/(ld\+)?json/.test(attributes)) continue;
    const hash = `'sha256-${createHash('sha256').update(body).digest('base64')}'`;
    if (!scriptSources.includes(hash))
      problems.push(`${path}: an inline script without its hash ${hash} in script-src`);
  }
  if (/<[^>]+\son[a-z]+\s*=/i.test(html)) problems.push(`${path}: an inline event handler attribute`);
  if (headers.get('x-content-type-options') !== 'nosniff')
    problems.push(`${path}: X-Content-Type-Options is ${headers.get('x-content-type-options')}`);
  if (
    !['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin'].includes(
      headers.get('referrer-policy') ?? '',
    )
  )
    problems.push(`${path}: Referrer-Policy is ${headers.get('referrer-policy')}`);
  const permissions = headers.get('permissions-policy') ?? '';
  for (const feature of ['camera', 'microphone', 'geolocation'])
    if (!permissions.includes(`${feature}=()`))
      problems.push(`${path}: Permissions-Policy does not switch off ${feature}`);
  return problems;
}

describe('security headers on HTML pages', () => {
  it('every page carries a strict CSP, nosniff, a referrer and a permissions policy, and no HSTS over http', async () => {
    const problems: string[] = [];
    for (const page of pages) {
      const res = await fetch(`${server.url}${page.path}`);
      const html = await res.text();
      expect(res.status, page.path).toBe(page.status);
      expect(res.headers.get('content-type'), page.path).toMatch(/^text\/html/);
      problems.push(...problemsOf(page.path, res.headers, html));
      expect(res.headers.get('strict-transport-security'), page.path).toBeNull();
    }
    expect(problems).toEqual([]);
  });

  it("the departures block is framed by the site's own trip pages without JavaScript, and by no other site", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/treks/sample-trek`);
      const own = page.frameLocator('iframe.departures-frame');
      await expect.poll(() => own.locator('[data-live-departures]').count()).toBe(1);

      // Another origin (a name the server does not answer for) framing the same address.
      await page.route('http://elsewhere.test/', (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: `<iframe src="${server.url}/departures/block?trip=sample-trek"></iframe>`,
        }),
      );
      await page.goto('http://elsewhere.test/');
      const frame = page.frames().find((f) => f !== page.mainFrame());
      await page.waitForTimeout(300);
      expect(await page.frameLocator('iframe').locator('[data-live-departures]').count()).toBe(0);
      expect(frame?.url() ?? '').not.toContain('/departures/block');
    } finally {
      await context.close();
    }
  });

  it('sends Strict-Transport-Security for an https site, on pages and everything else', async () => {
    for (const path of ['/', '/treks/sample-trek', '/no-such-page', '/v1/trips', '/llms.txt']) {
      const res = await fetch(`${https.url}${path}`);
      await res.arrayBuffer();
      const hsts = res.headers.get('strict-transport-security') ?? '';
      expect(hsts, path).toMatch(/max-age=(\d+)/);
      expect(Number(/max-age=(\d+)/.exec(hsts)?.[1]), path).toBeGreaterThanOrEqual(31_536_000);
      expect(hsts, path).toContain('includeSubDomains');
    }
  });

  it('every page loads in Chromium without a CSP violation or a console error', async () => {
    const context = await browser.newContext();
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (e) =>
        seen.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`),
      );
    });
    const problems: string[] = [];
    try {
      const page = await context.newPage();
      for (const { path, status } of pages) {
        const errors: string[] = [];
        const onConsole = (m: { type(): string; text(): string }) => {
          // Chromium reports the document's own 404 as a failed load; that status is the point of the page.
          if (m.type() === 'error' && !(status === 404 && /status of 404/.test(m.text()))) errors.push(m.text());
        };
        const onError = (e: Error) => errors.push(e.message);
        page.on('console', onConsole);
        page.on('pageerror', onError);
        const response = await page.goto(`${server.url}${path}`, { waitUntil: 'load' });
        expect(response?.status(), path).toBe(status);
        await page.waitForTimeout(100);
        const violations = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
        problems.push(...violations.map((v) => `${path}: ${v}`), ...errors.map((e) => `${path}: ${e}`));
        page.off('console', onConsole);
        page.off('pageerror', onError);
      }
    } finally {
      await context.close();
    }
    expect(problems).toEqual([]);
  });
});
