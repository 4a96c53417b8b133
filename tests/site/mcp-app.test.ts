/**
 * The departure search as an MCP App view, in real Chromium, through a host made of the official
 * v2 client and the ext-apps `AppBridge` (scripts/interop/mcp-app-host/), against the Node host:
 * one run lists the tools, reads the view, shows it for a search, changes a filter (a tool call
 * through the host), and sends an enquiry only when the person presses Send, which the view
 * answers with the reference and the server stores once (tests/helpers/mcp-app-flow.ts). The
 * view also shows one trip's dates for `get_trip`, writes what it shows as text, follows the
 * host's theme and room, and passes axe in both colour schemes at two widths.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import axe from 'axe-core';
import type { McpUiStyles } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { Frame } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { openHost, type McpAppHost } from '../../scripts/interop/mcp-app-host/index.ts';
import { departureViewFlow } from '../helpers/mcp-app-flow.ts';
import { eventually } from '../helpers/eventually.ts';
import { enquirySite, fewSeats } from './site.ts';

const live = enquirySite('mcp-app');
let host: McpAppHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

const outbox = () => {
  try {
    return readdirSync(path.join(live.dataDir, 'outbox'));
  } catch {
    return [];
  }
};

const mcpUrl = () => `${live.server.url}/mcp`;

/** The view's frame, once it has drawn its cards. */
async function viewFrame(h: McpAppHost): Promise<Frame> {
  await h.view.locator('li.card').first().waitFor();
  const frame = h.page.frames().find((f) => f.parentFrame()?.parentFrame() === h.page.mainFrame());
  if (!frame) throw new Error('the view has no frame');
  return frame;
}

/** axe's findings in the view's own document, by rule and place. */
async function axeFindings(frame: Frame, rules?: string[]): Promise<string[]> {
  if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(axe.source);
  const results = await frame.evaluate(
    (only) =>
      (
        window as unknown as {
          axe: {
            run(
              context: Document,
              options: object,
            ): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }>;
          };
        }
      ).axe.run(document, {
        resultTypes: ['violations'],
        ...(only ? { runOnly: { type: 'rule', values: only } } : {}),
      }),
    rules,
  );
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('the departure view in a host', () => {
  it('lists and reads the view, shows a search, changes a filter through the host, and sends an enquiry only on Send, stored once', async () => {
    host = await openHost(live.browser, { width: 720, headers: { 'X-Real-IP': '192.0.2.141' } });
    const before = outbox().length;
    const { reference } = await departureViewFlow(host, {
      mcpUrl: mcpUrl(),
      restUrl: live.server.url,
      revision: '2026-07-28',
      departureId: fewSeats.id,
      search: { type: 'trek' },
      filter: { name: 'minSeats', value: '2', arguments: { type: 'trek', minSeats: 2 } },
      person: { name: 'Asha Rao', phone: '+91 98765 43210', groupSize: 2, message: 'Sent from the view.' },
      storedWith: async (ref) => outbox().filter((file) => file === `${ref}.eml`).length,
    });
    expect(outbox().length).toBe(before + 1);
    // The person's own page of it is read from the store.
    expect((await fetch(`${live.server.url}/enquiry-sent?ref=${reference}`)).status).toBe(200);
  }, 120_000);

  it('works the same for a host on 2025-11-25, which declares the extension in initialize only', async () => {
    host = await openHost(live.browser, { width: 720, headers: { 'X-Real-IP': '192.0.2.142' } });
    await departureViewFlow(host, {
      mcpUrl: mcpUrl(),
      restUrl: live.server.url,
      revision: '2025-11-25',
      departureId: fewSeats.id,
      search: { trip: 'sample-trek' },
      filter: { name: 'difficulty', value: 'Moderate', arguments: { trip: 'sample-trek', difficulty: 'Moderate' } },
      person: { name: 'Ravi Kumar', phone: '+91 91234 56789', groupSize: 1, message: 'On 2025-11-25.' },
      storedWith: async (ref) => outbox().filter((file) => file === `${ref}.eml`).length,
    });
  }, 120_000);

  it("shows one trip's dates for get_trip, asked for through the host", async () => {
    host = await openHost(live.browser, { width: 720 });
    await host.page.evaluate((url) => window.host.connect(url, '2026-07-28'), mcpUrl());
    await host.page.evaluate(() => window.host.show('get_trip', { slug: 'sample-trek' }, { theme: 'light' }));
    const api = (await (await fetch(`${live.server.url}/v1/departures?trip=sample-trek`)).json()) as {
      data: { id: string }[];
    };
    await eventually(
      async () =>
        expect(
          await host!.view
            .locator('li.card')
            .evaluateAll((cards) => cards.map((c) => (c as HTMLElement).dataset.departure)),
        ).toEqual(api.data.map((d) => d.id)),
      20_000,
    );
    expect(await host.view.locator('h1').textContent()).toBe('Dates of Fixture Trek');
    expect(await host.view.locator('[name="trip"]').inputValue()).toBe('sample-trek');
    const calls = host.calls.filter((c) => c.method === 'tools/call').map((c) => [c.name, c.arguments]);
    expect(calls).toEqual([
      ['get_trip', { slug: 'sample-trek' }],
      ['list_departures', { trip: 'sample-trek' }],
    ]);
  }, 60_000);

  it('writes every value it shows as text: markup in a departure note stays words', async () => {
    const note = '<img src="/x" onerror="window.parent.postMessage(1,\'*\')"><b>Bring warm layers</b>';
    await live.addDeparture([
      '--trip',
      'sample-trek',
      '--start',
      '2031-10-14',
      '--seats',
      '12',
      '--note',
      note,
      '--id',
      'sample-trek-2031-10-14',
    ]);
    const search = { from: '2031-10-14', to: '2031-10-14' };
    // Departures are read at most once a second: the new date is there once /v1 has it.
    await eventually(async () => {
      const api = (await (await fetch(`${live.server.url}/v1/departures?${new URLSearchParams(search)}`)).json()) as {
        count: number;
      };
      expect(api.count).toBe(1);
    });
    host = await openHost(live.browser, { width: 720 });
    await host.page.evaluate((url) => window.host.connect(url, '2026-07-28'), mcpUrl());
    await host.page.evaluate((args) => window.host.show('list_departures', args, {}), search);
    const card = host.view.locator('li.card[data-departure="sample-trek-2031-10-14"]');
    await card.waitFor();
    expect(await card.locator('.note').textContent()).toBe(note);
    expect(await host.view.locator('img, b').count()).toBe(0);
    expect(host.strayRequests).toEqual([]);
  }, 90_000);

  it("follows the host's theme and room, and passes axe in both colour schemes at 360 and 720 px", async () => {
    for (const width of [360, 720]) {
      host = await openHost(live.browser, { width, height: 800 });
      await host.page.evaluate((url) => window.host.connect(url, '2026-07-28'), mcpUrl());
      await host.page.evaluate(() =>
        window.host.show(
          'list_departures',
          { trip: 'sample-trek' },
          { theme: 'light', containerDimensions: { maxHeight: 640 } },
        ),
      );
      const frame = await viewFrame(host);
      // The form of a date open too, so its fields are checked.
      await host.view.getByRole('button', { name: 'Enquire for this date' }).first().click();
      await host.view.locator('form.enquiry').waitFor();
      expect(await frame.evaluate(() => document.documentElement.style.maxHeight)).toBe('640px');
      expect(await axeFindings(frame), `${width} px, light`).toEqual([]);
      const lightBackground = await frame.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

      await host.page.evaluate(() => window.host.changeContext({ theme: 'dark' }));
      await eventually(async () =>
        expect(await frame.evaluate(() => document.documentElement.dataset.theme)).toBe('dark'),
      );
      expect(await frame.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).not.toBe(
        lightBackground,
      );
      expect(await axeFindings(frame, ['color-contrast', 'link-in-text-block']), `${width} px, dark`).toEqual([]);

      // The host's own colours, given as its style variables, are the view's.
      await host.page.evaluate(() =>
        window.host.changeContext({
          styles: { variables: { '--color-background-primary': 'rgb(1, 2, 3)' } as McpUiStyles },
        }),
      );
      await eventually(async () =>
        expect(await frame.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe(
          'rgb(1, 2, 3)',
        ),
      );
      await host.close();
      host = undefined;
    }
  }, 120_000);
});
