/**
 * A chat client that shows MCP App views, for the tests and `npm run screenshots`: the host page (./page.ts: the official
 * v2 client and the ext-apps `AppBridge`) and the spec's sandbox proxy, in Chromium, each on an
 * origin of its own that only this test answers (`host.test`, `sandbox.test`). The sandbox page
 * carries the Content-Security-Policy the spec says a host builds from the view's declared
 * `_meta.ui.csp`, and the inner frame it writes the view into inherits it.
 *
 * The page's MCP client reaches the server through this process (`relayFetch`), as a web host's
 * backend does; every JSON-RPC request it relays is recorded, in order (`calls`). Any other
 * request the page or the view makes is refused and recorded (`strayRequests`), and so is every
 * CSP violation Chromium reports (`cspViolations`): the view must reach nothing.
 */
import { build } from 'esbuild';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';

const hostOrigin = 'http://host.test';
const sandboxOrigin = 'http://sandbox.test';

let bundled: Promise<string> | undefined;

/** The host page's script, bundled once per process. */
function hostScript(): Promise<string> {
  bundled ??= build({
    entryPoints: [new URL('./page.ts', import.meta.url).pathname],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  }).then((result) => result.outputFiles[0]!.text.replace(/<\/(script)/gi, '<\\/$1'));
  return bundled;
}

interface DeclaredCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** The sandbox's CSP from the view's declared domains, as the MCP Apps specification constructs it. */
function sandboxCsp(csp: DeclaredCsp): string {
  const list = (domains: string[] | undefined) => (domains ?? []).filter((d) => !/[;\s'"]/.test(d)).join(' ');
  const resources = list(csp.resourceDomains);
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`.trim(),
    `style-src 'self' 'unsafe-inline' ${resources}`.trim(),
    `connect-src 'self' ${list(csp.connectDomains)}`.trim(),
    `img-src 'self' data: ${resources}`.trim(),
    `font-src 'self' ${resources}`.trim(),
    `media-src 'self' data: ${resources}`.trim(),
    `frame-src ${list(csp.frameDomains) || "'none'"}`,
    "object-src 'none'",
    `base-uri ${list(csp.baseUriDomains) || "'self'"}`,
  ].join('; ');
}

/** The sandbox proxy: writes the view's HTML into its inner frame and passes messages both ways. */
const sandboxPage = `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;height:100%}iframe{border:0;width:100%;height:100%;display:block}</style></head><body><script>
const host = ${JSON.stringify(hostOrigin)};
const inner = document.createElement('iframe');
inner.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
inner.title = 'Departure search';
document.body.append(inner);
window.addEventListener('message', (event) => {
  if (event.source === window.parent && event.origin === host) {
    if (event.data && event.data.method === 'ui/notifications/sandbox-resource-ready') {
      const doc = inner.contentDocument;
      doc.open();
      doc.write(event.data.params.html);
      doc.close();
    } else inner.contentWindow.postMessage(event.data, '*');
  } else if (event.source === inner.contentWindow) window.parent.postMessage(event.data, host);
});
window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, host);
</script></body></html>`;

interface RelayedCall {
  method: string;
  /** A tool's or resource's name: params.name, or params.uri. */
  name?: string;
  arguments?: Record<string, unknown>;
}

export interface McpAppHost {
  context: BrowserContext;
  page: Page;
  /** The view's document: the inner frame of the sandbox. */
  view: FrameLocator;
  calls: RelayedCall[];
  strayRequests: string[];
  cspViolations: string[];
  close(): Promise<void>;
}

/**
 * Opens the host page in a new context of `browser`, `width` pixels wide. `headers` go with every
 * request relayed to the server (a client address behind a proxy, say).
 */
export async function openHost(
  browser: Browser,
  options: { width: number; height?: number; headers?: Record<string, string> },
): Promise<McpAppHost> {
  const context = await browser.newContext({
    reducedMotion: 'reduce',
    deviceScaleFactor: 1,
    viewport: { width: options.width, height: options.height ?? 900 },
  });
  const page = await context.newPage();
  const calls: RelayedCall[] = [];
  const strayRequests: string[] = [];
  const cspViolations: string[] = [];
  const script = await hostScript();

  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.origin === hostOrigin && url.pathname === '/') {
      return route.fulfill({
        contentType: 'text/html; charset=utf-8',
        body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test host</title><style>body{margin:0;font-family:system-ui}#conversation{padding:8px}#view{border:1px solid #888;width:100%;height:200px;display:block}</style></head><body data-sandbox="${sandboxOrigin}/sandbox.html"><div id="conversation"></div><script>${script}</script></body></html>`,
      });
    }
    if (url.origin === sandboxOrigin && url.pathname === '/sandbox.html') {
      const declared = JSON.parse(url.searchParams.get('csp') ?? '{}') as DeclaredCsp;
      return route.fulfill({
        contentType: 'text/html; charset=utf-8',
        headers: { 'Content-Security-Policy': sandboxCsp(declared) },
        body: sandboxPage,
      });
    }
    strayRequests.push(`${route.request().method()} ${url.href}`);
    return route.abort('blockedbyclient');
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });

  await page.exposeFunction(
    'relayFetch',
    async (request: { url: string; method: string; headers: [string, string][]; body: string | null }) => {
      if (request.body) {
        const message = JSON.parse(request.body) as {
          method?: string;
          params?: { name?: string; uri?: string; arguments?: Record<string, unknown> };
        };
        if (message.method)
          calls.push({
            method: message.method,
            ...(message.params?.name || message.params?.uri ? { name: message.params.name ?? message.params.uri } : {}),
            ...(message.params?.arguments ? { arguments: message.params.arguments } : {}),
          });
      }
      const response = await fetch(request.url, {
        method: request.method,
        headers: { ...Object.fromEntries(request.headers), ...options.headers },
        ...(request.body !== null ? { body: request.body } : {}),
      });
      return { status: response.status, headers: [...response.headers], body: await response.text() };
    },
  );
  await page.goto(`${hostOrigin}/`);
  return {
    context,
    page,
    view: page.frameLocator('#view').frameLocator('iframe'),
    calls,
    strayRequests,
    cspViolations,
    close: () => context.close(),
  };
}
