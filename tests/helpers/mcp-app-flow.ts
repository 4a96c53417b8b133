/**
 * The departure view's whole use through a host (scripts/interop/mcp-app-host/), in one run, with its checks: the
 * host lists the tools and reads the view; shows it for a search; the person changes a filter,
 * which reaches the server as a `tools/call` through the host; opens the enquiry form of a date
 * and fills it in, and nothing is sent until they press Send; then the view shows the reference
 * and the server has taken exactly one enquiry. Run against the Node host (tests/site/mcp-app.test.ts)
 * and the replayed Vercel output (tests/build/vercel.test.ts).
 */
import { expect } from 'vitest';
import { enquiryIdPattern } from '../../service/bookings/store.ts';
import { departureSearchView, viewCsp } from '../../service/mcp/views.ts';
import type { McpAppHost } from '../../scripts/interop/mcp-app-host/index.ts';
import { eventually } from './eventually.ts';

export interface FlowOptions {
  /** The MCP endpoint, and the origin whose /v1 answers the cards must match. */
  mcpUrl: string;
  restUrl: string;
  revision: '2026-07-28' | '2025-11-25';
  /** A date the search finds, with room for the group, and the search before and after the filter changes. */
  departureId: string;
  search: Record<string, string | number>;
  filter: { name: string; value: string; arguments: Record<string, string | number> };
  person: { name: string; phone: string; groupSize: number; message: string };
  /** How many enquiries the server has stored with this reference. */
  storedWith(reference: string): Promise<number>;
}

/** How long the view may take to show an answer on a busy machine: a tool call through the host and a render. */
const waitMs = 20_000;

const toolCalls = (host: McpAppHost, name: string) =>
  host.calls.filter((c) => c.method === 'tools/call' && c.name === name);

async function restDepartures(options: FlowOptions, search: Record<string, string | number>) {
  const query = new URLSearchParams(Object.entries(search).map(([k, v]) => [k, String(v)]));
  const response = await fetch(`${options.restUrl}/v1/departures?${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { id: string; tripName: string }[] }).data;
}

/** The departure ids the view shows, in order. */
function shownIds(host: McpAppHost): Promise<string[]> {
  return host.view
    .locator('li.card')
    .evaluateAll((cards) => cards.map((card) => (card as HTMLElement).dataset.departure ?? ''));
}

export async function departureViewFlow(host: McpAppHost, options: FlowOptions): Promise<{ reference: string }> {
  const { page, view } = host;
  const negotiated = await page.evaluate(
    ([url, revision]) => window.host.connect(url!, revision as never),
    [options.mcpUrl, options.revision],
  );
  expect(negotiated).toBe(options.revision);

  // The tools name the view as the extension says, in both its keys; the view is one HTML document
  // whose CSP names no origin.
  const tools = await page.evaluate(() => window.host.listTools());
  const named = Object.fromEntries(tools.map((t) => [t.name, t.view]));
  expect(named.list_departures).toBe(departureSearchView.uri);
  expect(named.get_trip).toBe(departureSearchView.uri);
  expect(named.send_enquiry).toBeNull();
  expect(tools.find((t) => t.name === 'list_departures')?.meta).toEqual({
    ui: { resourceUri: departureSearchView.uri },
    'ui/resourceUri': departureSearchView.uri,
  });
  const document = await page.evaluate((uri) => window.host.readView(uri), departureSearchView.uri);
  expect(document.count).toBe(1);
  expect(document.mimeType).toBe('text/html;profile=mcp-app');
  expect(document.meta).toEqual({ ui: { csp: viewCsp, prefersBorder: true } });
  expect(document.html).toMatch(/^<!doctype html>/i);

  // Shown for a search: the cards are the dates /v1 finds, in its order.
  await page.evaluate(
    ([search]) =>
      window.host.show('list_departures', search!, { theme: 'light', displayMode: 'inline', platform: 'web' }),
    [options.search],
  );
  const expected = await restDepartures(options, options.search);
  expect(expected.length).toBeGreaterThan(1);
  await eventually(async () => expect(await shownIds(host)).toEqual(expected.map((d) => d.id)), waitMs);
  expect(await view.locator('li.card').first().locator('.trip').textContent()).toBe(expected[0]!.tripName);

  // A filter changed in the view becomes list_departures called through the host.
  const searchesBefore = toolCalls(host, 'list_departures').length;
  const panel = view.locator('#filter-panel');
  if ((await panel.getAttribute('open')) === null) await panel.locator('summary').click();
  const control = view.locator(`[name="${options.filter.name}"]`);
  if ((await control.evaluate((c) => c.tagName)) === 'SELECT') await control.selectOption(options.filter.value);
  else {
    await control.fill(options.filter.value);
    await control.press('Tab');
  }
  await eventually(
    async () =>
      expect(toolCalls(host, 'list_departures').slice(searchesBefore).at(-1)?.arguments).toEqual(
        options.filter.arguments,
      ),
    waitMs,
  );
  const filtered = await restDepartures(options, options.filter.arguments);
  await eventually(async () => expect(await shownIds(host)).toEqual(filtered.map((d) => d.id)), waitMs);
  expect(filtered.map((d) => d.id)).toContain(options.departureId);

  // The form of one date, filled in: nothing is sent until the person presses Send.
  const card = view.locator(`li.card[data-departure="${options.departureId}"]`);
  await card.getByRole('button', { name: 'Enquire for this date' }).click();
  const form = card.locator('form.enquiry');
  await form.waitFor();
  await form.getByLabel('Your name').fill(options.person.name);
  await form.getByLabel('Phone number').fill(options.person.phone);
  await form.getByLabel('People in your group').fill(String(options.person.groupSize));
  await form.getByLabel('Message').fill(options.person.message);
  // A round trip through the host and the view, so that anything the view would send has been sent.
  await page.evaluate(() => window.host.listTools());
  expect(toolCalls(host, 'send_enquiry')).toEqual([]);

  await form.getByRole('button', { name: 'Send enquiry' }).click();
  const shown = card.locator('.reference');
  await shown.waitFor();
  const reference = (await shown.textContent()) ?? '';
  expect(reference).toMatch(enquiryIdPattern);
  expect(toolCalls(host, 'send_enquiry')).toEqual([
    {
      method: 'tools/call',
      name: 'send_enquiry',
      arguments: {
        tripSlug: options.departureId.replace(/-\d{4}-\d{2}-\d{2}$/, ''),
        name: options.person.name,
        phone: options.person.phone,
        groupSize: options.person.groupSize,
        preferredDeparture: options.departureId,
        message: options.person.message,
      },
    },
  ]);
  expect(await options.storedWith(reference)).toBe(1);
  // The conversation is told, with the reference.
  const told = (await page.evaluate(() => window.host.events())).filter((e) => e.kind === 'model-context');
  expect(JSON.stringify(told)).toContain(reference);

  // Nothing but the host page and the sandbox was loaded, and nothing broke the declared CSP.
  expect(host.strayRequests).toEqual([]);
  expect(host.cspViolations).toEqual([]);
  return { reference };
}
