/**
 * WebMCP in real Chromium. With Chromium's own WebMCP switched on (`--enable-features=WebMCP`,
 * `document.modelContext`), an agent's view of the page is Playwright's `page.webmcp`: trip
 * pages and the board list the three tools with the MCP server's own input schemas, the reading
 * tools answer what /v1 answers, and start_enquiry fills the form and never sends it. An earlier
 * draft's `navigator.modelContext`, given by an init script, gets the same tools. Without either,
 * nothing is registered and nothing more than the small check is downloaded.
 */
import type { Browser, BrowserContext, Page, Request as PageRequest } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixtureSiteInChromium, launchChromium, stillPages } from './site.ts';

const site = fixtureSiteInChromium();
let webMcpChromium: Browser;
let context: BrowserContext | undefined;
beforeAll(async () => {
  webMcpChromium = await launchChromium(['--enable-features=WebMCP']);
});
afterAll(async () => webMcpChromium?.close());
afterEach(async () => {
  await context?.close();
  context = undefined;
});

/** An earlier draft's model context on `navigator`, keeping what the page registers, as a browser would. */
const navigatorModelContext = `(() => {
  const registered = [];
  window.__registered = registered;
  Object.defineProperty(Navigator.prototype, 'modelContext', { get: () => ({ registerTool(tool) { registered.push(tool); } }), configurable: true });
})();`;

async function open(
  browser: Browser,
  path: string,
  initScript?: string,
): Promise<{ page: Page; requests: PageRequest[]; errors: string[] }> {
  context = await browser.newContext(stillPages);
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  const requests: PageRequest[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${site.server.url}${path}`);
  await page.waitForLoadState('networkidle');
  return { page, requests, errors };
}

const toolNames = async (page: Page) => (await page.webmcp.tools()).map((t) => t.name).sort();

/** What the browser reports when a tool has answered (CDP's WebMCP.toolResponded). */
interface ToolResponded {
  invocationId: string;
  status: string;
  output?: unknown;
  errorText?: string;
}

/**
 * Calls a tool as an agent in the browser does: through the browser's own WebMCP domain (CDP's
 * WebMCP.invokeTool), the answer coming back from the browser (WebMCP.toolResponded). A tool that
 * moves to another page answers first: the browser has its answer before the page is gone.
 * Playwright's `callTool` instead reads the answer in the page, through its testing hook, so a
 * page that moves on can take the answer with it before it is read.
 */
async function callToolAsBrowserAgent(page: Page, name: string, input: Record<string, unknown>): Promise<unknown> {
  // The WebMCP domain is newer than Playwright's protocol types: its events and commands as Chromium 156 sends them.
  const cdp = (await page.context().newCDPSession(page)) as unknown as {
    on(event: 'WebMCP.toolsAdded', listener: (event: { tools: { name: string; frameId: string }[] }) => void): void;
    on(event: 'WebMCP.toolResponded', listener: (event: ToolResponded) => void): void;
    send(method: 'WebMCP.enable'): Promise<void>;
    send(
      method: 'WebMCP.invokeTool',
      params: { frameId: string; toolName: string; input: unknown },
    ): Promise<{ invocationId: string }>;
    detach(): Promise<void>;
  };
  try {
    // Enabling the domain reports the tools already registered; the one asked for may come in any of its reports.
    const frameId = new Promise<string>((resolve) =>
      cdp.on('WebMCP.toolsAdded', ({ tools }) => {
        const tool = tools.find((t) => t.name === name);
        if (tool) resolve(tool.frameId);
      }),
    );
    await cdp.send('WebMCP.enable');
    const responded = new Promise<ToolResponded>((resolve) => cdp.on('WebMCP.toolResponded', resolve));
    const { invocationId } = await cdp.send('WebMCP.invokeTool', { frameId: await frameId, toolName: name, input });
    const answer = await responded;
    expect(answer.invocationId).toBe(invocationId);
    expect(answer.status, answer.errorText).toBe('Completed');
    return answer.output;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0]?.text ?? '';
const posts = (requests: PageRequest[]) => requests.filter((r) => r.method() === 'POST').map((r) => r.url());

/** The MCP server's own tools/list, whose schemas the page must share. */
async function mcpTools(): Promise<{ name: string; inputSchema: Record<string, unknown> }[]> {
  const res = await fetch(`${site.server.url}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  return ((await res.json()) as { result: { tools: { name: string; inputSchema: Record<string, unknown> }[] } }).result
    .tools;
}

describe('WebMCP', () => {
  it('without a model context, registers nothing and downloads nothing but the small check', async () => {
    for (const path of ['/treks/sample-trek', '/departures']) {
      const { page, requests, errors } = await open(site.browser, path);
      const urls = requests.map((r) => new URL(r.url()).pathname);
      expect(urls, path).toContain('/webmcp.js');
      expect(
        urls.filter((u) => u.startsWith('/webmcp-tools')),
        path,
      ).toEqual([]);
      expect(await page.evaluate(() => 'modelContext' in document || 'modelContext' in navigator)).toBe(false);
      expect(errors, path).toEqual([]);
    }
  });

  it("in Chromium's WebMCP, trip pages and the board offer the three tools with the MCP server's schemas", async () => {
    const mcp = await mcpTools();
    for (const path of ['/treks/sample-trek', '/departures']) {
      const { page, errors } = await open(webMcpChromium, path);
      await expect.poll(() => toolNames(page)).toEqual(['list_departures', 'list_trips', 'start_enquiry']);
      const tools = await page.webmcp.tools();
      for (const [name, mcpName] of [
        ['list_trips', 'list_trips'],
        ['list_departures', 'list_departures'],
        ['start_enquiry', 'send_enquiry'],
      ] as const) {
        const { $schema: _dialect, ...schema } = mcp.find((t) => t.name === mcpName)!.inputSchema;
        expect(tools.find((t) => t.name === name)?.inputSchema, `${path} ${name}`).toEqual(schema);
      }
      expect(tools.find((t) => t.name === 'list_trips')?.annotations?.readOnly).toBe(true);
      expect(tools.find((t) => t.name === 'start_enquiry')?.annotations?.readOnly).toBeFalsy();
      expect(errors, path).toEqual([]);
      await context?.close();
      context = undefined;
    }
  });

  it('the reading tools answer what /v1 answers to the same arguments', async () => {
    const { page } = await open(webMcpChromium, '/expeditions/sample-expedition');
    await expect.poll(() => toolNames(page)).toContain('list_trips');
    const trips = (await page.webmcp.callTool('list_trips', { type: 'trek', difficulty: 'easy' })) as {
      structuredContent: unknown;
    };
    expect(trips.structuredContent).toEqual(
      await (await fetch(`${site.server.url}/v1/trips?type=trek&difficulty=easy`)).json(),
    );
    const departures = (await page.webmcp.callTool('list_departures', { trip: 'sample-expedition' })) as {
      structuredContent: { object: string; data: { tripSlug: string }[] };
    };
    expect(departures.structuredContent.object).toBe('list');
    for (const d of departures.structuredContent.data) expect(d.tripSlug).toBe('sample-expedition');
  });

  it("start_enquiry fills the trip page's form for the person to send, and sends nothing", async () => {
    const { page, requests } = await open(webMcpChromium, '/treks/sample-trek');
    await expect.poll(() => toolNames(page)).toContain('start_enquiry');
    const result = await page.webmcp.callTool('start_enquiry', {
      tripSlug: 'sample-trek',
      name: 'Asha Rao',
      phone: '+91 98765 43210',
      groupSize: 2,
      message: 'Two of us are vegetarian.',
    });
    expect(textOf(result)).toContain('nothing has been sent');
    expect(await page.inputValue('#enquiry-name')).toBe('Asha Rao');
    expect(await page.inputValue('#enquiry-phone')).toBe('+91 98765 43210');
    expect(await page.inputValue('#enquiry-groupSize')).toBe('2');
    expect(await page.inputValue('#enquiry-message')).toBe('Two of us are vegetarian.');
    expect(await page.textContent('#enquiry-status')).toContain('press “Send enquiry”');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Send enquiry');
    await page.waitForTimeout(500);
    expect(posts(requests)).toEqual([]);
  });

  it("from the board, start_enquiry opens the trip's page with its form filled in, still unsent", async () => {
    const { page, requests } = await open(webMcpChromium, '/departures');
    await expect.poll(() => toolNames(page)).toContain('start_enquiry');
    const result = await callToolAsBrowserAgent(page, 'start_enquiry', {
      tripSlug: 'sample-expedition',
      name: 'Ravi Menon',
      phone: '+44 20 7946 0958',
      groupSize: 3,
    });
    expect(textOf(result)).toContain('Opening the page of');
    await page.waitForURL(/\/expeditions\/sample-expedition#enquiry-form$/);
    await expect.poll(() => page.inputValue('#enquiry-name')).toBe('Ravi Menon');
    expect(await page.inputValue('#enquiry-groupSize')).toBe('3');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(posts(requests)).toEqual([]);
  });

  it("an earlier draft's navigator.modelContext gets the same tools", async () => {
    const { page, errors } = await open(site.browser, '/treks/sample-trek', navigatorModelContext);
    const registered = () =>
      page.evaluate(() =>
        ((window as unknown as { __registered?: { name: string }[] }).__registered ?? []).map((t) => t.name),
      );
    await expect.poll(registered).toEqual(['list_trips', 'list_departures', 'start_enquiry']);
    const said = await page.evaluate(() =>
      (
        window as unknown as {
          __registered: { name: string; execute(a: unknown): Promise<{ content: { text: string }[] }> }[];
        }
      ).__registered
        .find((t) => t.name === 'start_enquiry')!
        .execute({ tripSlug: 'sample-trek', name: 'Asha Rao', phone: '+91 98765 43210', groupSize: 2 }),
    );
    expect(said.content[0]?.text).toContain('nothing has been sent');
    expect(await page.inputValue('#enquiry-name')).toBe('Asha Rao');
    expect(errors).toEqual([]);
  });
});
