/** What the site tests share: the pages listed in the sitemap, and a Chromium to load them in. */
import { rmSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { formatDateRange } from '../../domain/format.ts';
import { runCli } from '../departures/cli.ts';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { chromiumPath } from '../helpers/requirements.ts';
import { newDataDir } from '../helpers/embedded-template.ts';
import { eventually } from '../helpers/eventually.ts';

/** Every page path the sitemap lists, read through the running server (the sitemap's origin is the build's SITE_URL). */
export async function sitemapPaths(origin: string): Promise<string[]> {
  const index = await (await fetch(`${origin}/sitemap-index.xml`)).text();
  const sitemaps = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? '').pathname);
  const paths: string[] = [];
  for (const sitemap of sitemaps) {
    const xml = await (await fetch(`${origin}${sitemap}`)).text();
    paths.push(...[...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? '').pathname));
  }
  return paths;
}

export function isTripPath(path: string): boolean {
  return /^\/(treks|expeditions)\/[a-z0-9-]+$/.test(path);
}

/**
 * What every context of the site tests starts from: its pages prefer reduced motion, as a reader
 * may ask. The site's only motion is smooth scrolling, which each click and picture would
 * otherwise wait out (a second or more for some forms).
 */
export const stillPages = { reducedMotion: 'reduce' } as const;

/** Debian's Chromium, headless; `args` switch on more (for example `--enable-features=WebMCP`). */
export function launchChromium(args: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      ...args,
    ],
  });
}

export interface FixtureSiteInChromium {
  /** Served in the test's process. */
  server: InProcessServer;
  browser: Browser;
  /** The pages the sitemap lists. */
  paths: string[];
}

/**
 * For a test file: the built fixture site served, a Chromium and the sitemap's pages, ready
 * before its tests and stopped after them. Read the fields inside the tests, once they are set.
 */
export function fixtureSiteInChromium(): FixtureSiteInChromium {
  const site = {} as FixtureSiteInChromium;
  beforeAll(async () => {
    site.server = await startInProcess(inject('fixtureSite'));
    site.browser = await launchChromium();
    site.paths = await sitemapPaths(site.server.url);
  }, 60_000);
  afterAll(async () => {
    await site.browser?.close();
    await site.server?.stop();
  });
  return site;
}

/**
 * Waits until the server at `origin` lists departure `id` of `trip`. Reads of departures are shared
 * for up to a second (service/departures/recent-reads.ts), so a page opened right after the
 * departures command changed one could still show the dates from before.
 */
export async function untilListed(origin: string, trip: string, id: string): Promise<void> {
  await eventually(async () => {
    const listed = (await (await fetch(`${origin}/v1/departures?trip=${trip}`)).json()) as { data: { id: string }[] };
    expect(listed.data.map((d) => d.id)).toContain(id);
  });
}

/** Sends the page's enquiry form and waits for the enquiry's confirmation page; returns its reference. */
export async function sendToConfirmation(page: Page): Promise<string> {
  await Promise.all([page.waitForURL(/\/enquiry-sent\?ref=enq-/), page.click('#enquiry-form button[type=submit]')]);
  return new URL(page.url()).searchParams.get('ref') ?? '';
}

/** A date of the fixture trek with 2 of 12 seats left, years ahead so it stays upcoming. */
export const fewSeats = { id: 'sample-trek-2031-09-23', dates: formatDateRange('2031-09-23', '2031-09-24') };

export interface EnquirySite {
  /** Served in the test's process. */
  server: InProcessServer;
  browser: Browser;
  /** The site's configured origin, http://localhost:<port>: plain form posts are accepted from there only. */
  site: string;
  dataDir: string;
  /** Adds a departure as the team does (the departures command's `add` with these options), through the server's bridge. */
  addDeparture(args: string[]): Promise<void>;
}

/**
 * For a test file of enquiries: the built fixture site with embedded storage in a data folder of
 * its own, served in the test's process, started without SITE_URL (so its origin is
 * http://localhost:<port>), trusting `x-real-ip` (TRUST_PROXY=vercel) so each context can speak
 * from its own address and have its own enquiry quota; the seeded departures and `fewSeats`
 * beside them (added by the departures command, through the server's bridge); and a Chromium.
 */
export function enquirySite(name: string): EnquirySite {
  const live = {} as EnquirySite;
  live.addDeparture = async (args) => {
    // A process of its own: the command in this process would take the server's database for one left behind (its own pid).
    const added = await runCli(inject('fixtureSite'), ['add', ...args], {
      DATA_DIR: live.dataDir,
      OPERATIONAL_STORAGE: 'embedded',
    });
    expect(added.code, added.stderr).toBe(0);
    const named = /^Added ([^:]+): ([^,]+),/m.exec(added.stdout);
    expect(named, added.stdout).not.toBeNull();
    await untilListed(live.server.url, named![2]!, named![1]!);
  };
  beforeAll(async () => {
    live.dataDir = newDataDir(`${name}-`);
    [live.server, live.browser] = await Promise.all([
      startInProcess(inject('fixtureSite'), {
        OPERATIONAL_STORAGE: 'embedded',
        DATA_DIR: live.dataDir,
        TRUST_PROXY: 'vercel',
        SITE_URL: '',
        CONTACT_EMAIL: 'hello@example.test',
      }),
      launchChromium(),
    ]);
    live.site = `http://localhost:${live.server.port}`;
    // Read once first, so the new store is seeded before the date is added.
    expect((await fetch(`${live.server.url}/v1/departures?trip=sample-trek`)).status).toBe(200);
    await live.addDeparture([
      '--trip',
      'sample-trek',
      '--start',
      '2031-09-23',
      '--seats',
      '12',
      '--seats-left',
      '2',
      '--id',
      fewSeats.id,
    ]);
  }, 180_000);
  afterAll(async () => {
    await live.browser?.close();
    await live.server?.stop();
    rmSync(live.dataDir, { recursive: true, force: true });
  });
  return live;
}
