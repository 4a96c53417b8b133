/**
 * The departure search on the real catalogue, built and served with embedded storage, its
 * departures set with the operations CLI:
 *
 * - the task "a moderate trek of about a week in late September or October, for two people,
 *   under ₹25,000 each: which dates still have seats, and how do I book?" answered in real
 *   Chromium from the home page in at most three interactions, at 360 and 1280 px, with
 *   JavaScript on and off: choose the filters, submit, and enquire for Hampta Pass on 23 Sep
 *   (2 of 12 seats, ₹16,500) with the date kept in the enquiry form;
 * - a second task: an expedition in October for four under ₹25,000, which nothing fits; the
 *   board names the single changes that would find dates, and one tap shows them;
 * - one parity check: for a set of searches, the board without JavaScript, GET /v1/departures,
 *   departures.md, departures.ics and the MCP tool give the same departures in the same order as
 *   a brute-force filter of the full lists (every departure, every trip).
 *
 * Pictures go to test-results/departure-search/ for people to look at when a run asks for them (pictures.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateRange } from '../../domain/format.ts';
import { runCli } from '../departures/cli.ts';
import { eventually } from '../helpers/eventually.ts';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { realSite, realSiteUrl as siteUrl } from '../helpers/real-site.ts';
import { picturesIn } from './pictures.ts';
import { launchChromium, stillPages } from './site.ts';

const pictures = picturesIn('departure-search');

let site: string;
let server: InProcessServer;
let dataDir: string;
let browser: Browser;
let mcp: Client;

const cli = async (...args: string[]) => {
  const result = await runCli(site, args, {
    DATA_DIR: dataDir,
    OPERATIONAL_STORAGE: 'embedded',
    CONTENT_DIR: './content',
  });
  if (result.code !== 0) throw new Error(`departures ${args.join(' ')}: ${result.stderr}${result.stdout}`);
  return result.stdout;
};

/** The next 23 September at least a few weeks away: 2027 until the summer of 2027. */
const today = new Date().toISOString().slice(0, 10);
const year = today < `${today.slice(0, 4)}-08-20` ? Number(today.slice(0, 4)) : Number(today.slice(0, 4)) + 1;
const hampta = { id: `hampta-pass-trek-${year}-09-23`, start: `${year}-09-23`, end: `${year}-09-27` };

beforeAll(async () => {
  site = await realSite();
  dataDir = mkdtempSync(path.join(tmpdir(), 'departure-search-'));
  server = await startInProcess(site, { DATA_DIR: dataDir, OPERATIONAL_STORAGE: 'embedded', SITE_URL: siteUrl });
  // The first read opens the embedded store and seeds it; the task's departure is then set as the
  // operations team would: Hampta Pass, 23 to 27 September, 2 of 12 seats left, at the trip's price.
  await (await fetch(`${server.url}/v1/departures`)).arrayBuffer();
  const listed = JSON.parse(await cli('list', '--trip', 'hampta-pass-trek', '--json')) as { id: string }[];
  if (listed.some((d) => d.id === hampta.id))
    await cli('update', hampta.id, '--seats', '12', '--seats-left', '2', '--price', 'trip', '--end', hampta.end);
  else
    await cli(
      'add',
      '--trip',
      'hampta-pass-trek',
      '--start',
      hampta.start,
      '--end',
      hampta.end,
      '--seats',
      '12',
      '--seats-left',
      '2',
    );
  // Variety for the parity check: a departure at a price of its own, and one taken off the site.
  const rupin = (JSON.parse(await cli('list', '--trip', 'rupin-pass-trek', '--json')) as { id: string }[])[0];
  if (rupin) await cli('update', rupin.id, '--price', '26000');
  const markha = (JSON.parse(await cli('list', '--trip', 'markha-valley-trek', '--json')) as { id: string }[])[0];
  if (markha) await cli('hide', markha.id);
  await eventually(async () =>
    expect((await api(`?trip=hampta-pass-trek&from=${hampta.start}&to=${hampta.start}`)).data[0]).toMatchObject({
      id: hampta.id,
      seatsLeft: 2,
    }),
  );
  browser = await launchChromium();
  mcp = new Client({ name: 'departure-search-tests', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
}, 660_000);

afterAll(async () => {
  await mcp?.close();
  await browser?.close();
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

interface ApiDeparture {
  id: string;
  tripSlug: string;
  tripName: string;
  startDate: string;
  endDate: string;
  status: string;
  priceInr: number | null;
  seatsTotal: number | null;
  seatsLeft: number | null;
}
interface ApiTrip {
  slug: string;
  type: string;
  difficulty: string;
  region: string;
  durationDays: number | null;
}

async function api(query = ''): Promise<{ object: string; count: number; data: ApiDeparture[] }> {
  const response = await fetch(`${server.url}/v1/departures${query}`);
  expect(response.status, query).toBe(200);
  return response.json();
}

/** The search, written independently of the code under test, over the full lists. */
function bruteForce(all: ApiDeparture[], trips: ApiTrip[], query: string): ApiDeparture[] {
  const q = Object.fromEntries(new URLSearchParams(query));
  const trip = new Map(trips.map((t) => [t.slug, t]));
  const number = (name: string) => (q[name] === undefined ? undefined : Number(q[name]));
  return all.filter((d) => {
    const t = trip.get(d.tripSlug)!;
    const days = t.durationDays!;
    const joinable = d.status === 'open' || d.status === 'filling';
    return (
      (q.trip === undefined || d.tripSlug === q.trip) &&
      (q.from === undefined || d.startDate >= q.from) &&
      (q.to === undefined || d.startDate <= q.to) &&
      (q.type === undefined || t.type === q.type) &&
      (q.difficulty === undefined || t.difficulty.toLowerCase() === q.difficulty.toLowerCase()) &&
      (q.region === undefined || t.region.toLowerCase().includes(q.region.toLowerCase())) &&
      (number('minDays') === undefined || days >= number('minDays')!) &&
      (number('maxDays') === undefined || days <= number('maxDays')!) &&
      (number('minSeats') === undefined ||
        (joinable && (d.seatsLeft === null || d.seatsLeft >= number('minSeats')!))) &&
      (number('maxPriceInr') === undefined || (d.priceInr !== null && d.priceInr <= number('maxPriceInr')!))
    );
  });
}

type ContextOptions = Parameters<Browser['newContext']>[0];

async function withPage<T>(options: ContextOptions, run: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ ...stillPages, ...options });
  try {
    return await run(await context.newPage());
  } finally {
    await context.close();
  }
}

/** Counts what the person does: each step a tap, a choice of filters or a submit. */
function interactions() {
  let count = 0;
  return {
    async step<T>(action: () => Promise<T>): Promise<T> {
      count += 1;
      return action();
    },
    get count() {
      return count;
    },
  };
}

const cards = (page: Page) =>
  page.$$eval('.departure', (els) =>
    els.map((el) => {
      const e = el as HTMLElement;
      const box = e.getBoundingClientRect();
      return {
        id: e.dataset.departure ?? '',
        trip: e.dataset.trip ?? '',
        start: e.dataset.start ?? '',
        seatsLeft: e.dataset.seatsLeft ? Number(e.dataset.seatsLeft) : null,
        text: e.innerText,
        bottom: box.bottom + scrollY,
      };
    }),
  );

const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

for (const width of [360, 1280]) {
  const viewport = width < 400 ? { width, height: 640 } : { width, height: 800 };
  for (const javaScriptEnabled of [true, false]) {
    const tag = `${width}-js-${javaScriptEnabled ? 'on' : 'off'}`;

    describe(`${width} px, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
      it('answers "a moderate trek of about a week in late September or October, for two, under ₹25,000 each: which dates, and how do I book?" in three interactions from the home page', async () => {
        await withPage({ viewport, javaScriptEnabled }, async (page) => {
          const person = interactions();
          await page.goto(`${server.url}/`);
          await person.step(async () => {
            await page.fill('#search-from', `${year}-09-20`);
            await page.fill('#search-to', `${year}-10-31`);
            await page.selectOption('#search-type', 'trek');
            await page.selectOption('#search-difficulty', 'Moderate');
            await page.fill('#search-maxDays', '8');
            await page.fill('#search-minSeats', '2');
            await page.fill('#search-maxPriceInr', '25000');
          });
          await person.step(() =>
            Promise.all([
              page.waitForURL(/\/departures\?/),
              page.click('form[data-departure-search] button[type=submit]'),
            ]),
          );
          await page.locator('.departure').first().waitFor();

          const search = new URL(page.url()).searchParams;
          expect(Object.fromEntries([...search].filter(([, v]) => v !== ''))).toEqual({
            from: `${year}-09-20`,
            to: `${year}-10-31`,
            type: 'trek',
            difficulty: 'Moderate',
            maxDays: '8',
            minSeats: '2',
            maxPriceInr: '25000',
          });
          // With JavaScript the address holds only the filters given, so it is the one to share.
          if (javaScriptEnabled) expect([...search.values()].every((v) => v !== '')).toBe(true);

          const shown = await cards(page);
          const first = shown[0]!;
          expect(first).toMatchObject({ id: hampta.id, trip: 'hampta-pass-trek', start: hampta.start, seatsLeft: 2 });
          for (const words of [
            'Hampta Pass Trek',
            'Moderate trek',
            '5 days',
            'Himachal Pradesh',
            formatDateRange(hampta.start, hampta.end),
            '2 of 12 seats left',
            'Filling fast',
            '₹16,500',
            'Enquire for this date',
          ]) {
            expect(first.text, words).toContain(words);
          }
          expect(shown.map((c) => c.start)).toEqual(shown.map((c) => c.start).sort());
          // On a phone the first result, with its button, is on the first screen after submitting.
          expect(first.bottom, `first result ends at ${first.bottom}px`).toBeLessThanOrEqual(viewport.height);
          expect(await page.locator('details.search-filters').getAttribute('open')).toBeNull();
          expect(await fitsWidth(page)).toBe(true);
          await pictures.take(page, `task-${tag}`);

          await person.step(() =>
            Promise.all([
              page.waitForURL(/\/enquire\?departure=/),
              page.locator(`.departure[data-departure="${hampta.id}"] a:has-text("Enquire")`).click(),
            ]),
          );
          expect(new URL(page.url()).pathname).toBe('/treks/hampta-pass-trek/enquire');
          expect(await page.inputValue('input[name="preferredDeparture"]')).toBe(
            formatDateRange(hampta.start, hampta.end),
          );
          expect(await page.inputValue('input[name="tripSlug"]')).toBe('hampta-pass-trek');
          // The party size searched for is in the form already: nothing is typed twice.
          expect(await page.inputValue('input[name="groupSize"]')).toBe('2');
          expect(await page.locator('h1').innerText()).toContain('Hampta Pass Trek');
          expect(person.count).toBeLessThanOrEqual(3);
          await pictures.take(page, `task-enquire-${tag}`);
        });
      }, 120_000);

      it('tells a person whom nothing fits which single change would find dates, and one tap shows them', async () => {
        await withPage({ viewport, javaScriptEnabled }, async (page) => {
          const person = interactions();
          await page.goto(`${server.url}/`);
          await person.step(async () => {
            await page.fill('#search-from', `${year}-10-01`);
            await page.fill('#search-to', `${year}-10-31`);
            await page.selectOption('#search-type', 'expedition');
            await page.fill('#search-minSeats', '4');
            await page.fill('#search-maxPriceInr', '25000');
          });
          await person.step(() =>
            Promise.all([
              page.waitForURL(/\/departures\?/),
              page.click('form[data-departure-search] button[type=submit]'),
            ]),
          );
          await page.locator('.board-summary').waitFor();
          expect(await cards(page)).toEqual([]);
          expect(await page.locator('.board-summary').innerText()).toContain('No departures match this search.');
          const changes = page.locator('.relaxations a');
          expect(await changes.count()).toBeGreaterThan(0);
          await pictures.take(page, `nothing-fits-${tag}`, { fullPage: true });

          const change = changes.first();
          const said = await change.innerText();
          const promised = Number(/^(\d+) dates?/.exec(said)?.[1]);
          await person.step(() => Promise.all([page.waitForURL(/\/departures/), change.click()]));
          await page.locator('.departure').first().waitFor();
          const shown = await cards(page);
          expect(shown, said).toHaveLength(promised);
          const query = new URL(page.url()).search;
          const expected = bruteForce(
            (await api()).data,
            (await (await fetch(`${server.url}/v1/trips`)).json()).data,
            query,
          );
          expect(
            shown.map((c) => c.id),
            `${said}: ${query}`,
          ).toEqual(expected.map((d) => d.id));
          expect(person.count).toBeLessThanOrEqual(3);
        });
      }, 120_000);

      if (javaScriptEnabled) {
        it('searches again in place: the results change, the address follows and can be shared, Back returns; "to" before "from" is stopped before any request', async () => {
          await withPage({ viewport, javaScriptEnabled }, async (page) => {
            await page.goto(`${server.url}/departures?type=trek&difficulty=Moderate`);
            await page.evaluate(() => Object.assign(window, { samePage: true }));
            const requests: string[] = [];
            page.on('request', (request) => requests.push(request.url()));

            await page.click('details.search-filters > summary');
            await page.fill('#search-from', `${year}-10-31`);
            await page.fill('#search-to', `${year}-09-20`);
            await page.click('form[data-departure-search] button[type=submit]');
            expect(
              await page.evaluate(() => (document.querySelector('#search-to') as HTMLInputElement).validationMessage),
            ).toContain('on or after');
            expect(requests.filter((url) => url.includes('/departures?'))).toEqual([]);

            await page.fill('#search-to', '');
            await page.fill('#search-from', `${year}-09-20`);
            await page.fill('#search-minSeats', '2');
            await page.click('form[data-departure-search] button[type=submit]');
            await page.waitForURL((url) => url.searchParams.get('minSeats') === '2');
            expect(await page.evaluate(() => (window as { samePage?: boolean }).samePage)).toBe(true);
            const address = new URL(page.url());
            expect(address.search).toBe(`?from=${year}-09-20&type=trek&difficulty=Moderate&minSeats=2`);
            const inPlace = (await cards(page)).map((c) => c.id);
            expect(inPlace.length).toBeGreaterThan(0);
            // The shared address shows the same departures on a page of its own.
            const shared = await (await fetch(`${server.url}${address.pathname}${address.search}`)).text();
            expect([...shared.matchAll(/<li class="departure" data-departure="([^"]+)"/g)].map((m) => m[1])).toEqual(
              inPlace,
            );
            expect(await page.evaluate(() => document.activeElement?.id)).toBe('search-results');

            await page.goBack();
            await page.waitForURL((url) => !url.searchParams.has('minSeats'));
            await expect.poll(async () => await page.inputValue('#search-minSeats')).toBe('');
            expect(await page.evaluate(() => (window as { samePage?: boolean }).samePage)).toBe(true);
          });
        }, 120_000);
      }
    });
  }
}

describe('one search, five surfaces', () => {
  const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
  const searches = [
    '',
    '?type=trek',
    '?type=expedition&minSeats=2',
    '?difficulty=moderate&maxDays=8',
    `?from=${inDays(120)}&to=${inDays(240)}`,
    `?from=${hampta.start}&to=${year}-10-31&type=trek&difficulty=Moderate&maxDays=8&minSeats=2&maxPriceInr=25000`,
    '?region=himachal&maxPriceInr=20000',
    '?region=UTTARAKHAND&minDays=6&maxDays=8',
    '?minDays=10&minSeats=4',
    '?difficulty=Very%20Difficult&type=expedition',
    '?trip=hampta-pass-trek',
    `?trip=rupin-pass-trek&maxPriceInr=26000&from=${inDays(30)}`,
    '?minSeats=12',
    '?maxPriceInr=1',
    '?region=sikkim&type=expedition',
  ];

  it('the board without JavaScript, /v1/departures, departures.md, departures.ics and the MCP tool agree with a brute-force filter of the full lists', async () => {
    const all = (await api()).data;
    const trips = ((await (await fetch(`${server.url}/v1/trips`)).json()) as { data: ApiTrip[] }).data;
    expect(all.length).toBeGreaterThan(50);
    let nonEmpty = 0;
    for (const query of searches) {
      const expected = bruteForce(all, trips, query);
      const ids = expected.map((d) => d.id);
      if (ids.length > 0) nonEmpty += 1;

      const rest = await api(query);
      expect(
        rest.data.map((d) => d.id),
        `/v1/departures${query}`,
      ).toEqual(ids);
      expect(rest.count).toBe(ids.length);

      const board = await (await fetch(`${server.url}/departures${query}`)).text();
      const boardIds = [...board.matchAll(/<li class="departure" data-departure="([^"]+)"/g)].map((m) => m[1]);
      expect(boardIds, `/departures${query}`).toEqual(ids);
      if (query) expect(board).not.toContain('Some of the address was not used');

      const markdown = await (await fetch(`${server.url}/departures.md${query}`)).text();
      const rows = markdown
        .split('\n')
        .filter((line) => /^\| \d/.test(line))
        .map((line) => line.split(' | '));
      const withTrip = !query.includes('trip=');
      expect(
        rows.map((cells) => [
          cells[0]!.slice(2).replace(/ \(.*\)$/, ''),
          withTrip ? /^\[([^\]]+)\]/.exec(cells[1]!)?.[1] : undefined,
        ]),
        `/departures.md${query}`,
      ).toEqual(expected.map((d) => [formatDateRange(d.startDate, d.endDate), withTrip ? d.tripName : undefined]));
      const enquiries = [...markdown.matchAll(/\/enquire\?departure=([a-z0-9-]+)(?:&groupSize=\d+)?\)/g)].map(
        (m) => m[1],
      );
      expect(enquiries, `/departures.md${query} enquiries`).toEqual(
        expected.filter((d) => d.status === 'open' || d.status === 'filling').map((d) => d.id),
      );

      const calendar = (await (await fetch(`${server.url}/departures.ics${query}`)).text()).replace(/\r\n[ \t]/g, '');
      const uids = [...calendar.matchAll(/^UID:departure-(.+)@/gm)].map((m) => m[1]);
      expect(uids, `/departures.ics${query}`).toEqual(ids);

      const args = Object.fromEntries(
        [...new URLSearchParams(query)].map(([name, value]) => [
          name,
          /^\d+$/.test(value) && !/from|to/.test(name) ? Number(value) : value,
        ]),
      );
      const tool = await mcp.callTool({ name: 'list_departures', arguments: args });
      expect(tool.isError ?? false, `list_departures ${JSON.stringify(args)}`).toBe(false);
      expect(tool.structuredContent, `list_departures ${JSON.stringify(args)}`).toEqual(rest);
      // Nothing found: the text names the changes of one filter that would find dates, as the board does.
      const text = (tool.content as { text: string }[])[0]!.text;
      if (ids.length === 0 && query)
        expect(text, `list_departures ${JSON.stringify(args)}`).toMatch(
          /Changing one filter would find some:\n- \d+ dates? .+: list_departures `\{.*\}`|No change of one filter finds a departure\./,
        );
      if (query === '?maxPriceInr=1')
        expect(text).toMatch(/- \d+ dates? up to ₹[\d,]+ per person: list_departures `\{"maxPriceInr":"\d+"\}`/);
    }
    // The set holds searches that find dates and searches that find none.
    expect(nonEmpty).toBeGreaterThan(8);
    expect(nonEmpty).toBeLessThan(searches.length);
  }, 180_000);
});
