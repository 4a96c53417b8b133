/**
 * The whole alert flow in Chromium on a 360 px phone, with JavaScript on and off, against the
 * built fixture site with embedded storage, its alert job on the Node host's timer (every
 * second here): watch a sold-out date from the board, confirm from the email in the outbox, the
 * operator opens seats with `npm run departures`, the job's next run puts the alert in the
 * outbox naming the date and the seats, and its one-click unsubscribe (a POST, as a mail
 * client sends it) stops all further mail. Pictures go to test-results/alerts/ when a run asks for
 * them (tests/site/pictures.ts).
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { formatDateRange } from '../../domain/format.ts';
import { runCli } from '../departures/cli.ts';
import { newDataDir } from '../helpers/embedded-template.ts';
import { eventually } from '../helpers/eventually.ts';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { projectRoot } from '../helpers/project.ts';
import { picturesIn } from '../site/pictures.ts';
import { launchChromium, stillPages, untilListed } from '../site/site.ts';
import { readOutbox } from './outbox.ts';

// A browser, a server and two commands per flow on a shared machine.
vi.setConfig({ testTimeout: 180_000 });

let server: InProcessServer;
let browser: Browser;
let dataDir: string;
let site: string;
let nextIp = 10;
const pictures = picturesIn('alerts');
const cronSecret = 'a-cron-secret-for-the-tests-only';

beforeAll(async () => {
  dataDir = newDataDir('alert-flow-');
  [server, browser] = await Promise.all([
    startInProcess(inject('fixtureSite'), {
      OPERATIONAL_STORAGE: 'embedded',
      DATA_DIR: dataDir,
      TRUST_PROXY: 'vercel',
      SITE_URL: '',
      CONTACT_EMAIL: 'hello@example.test',
      ALERT_JOB_INTERVAL_MS: '1000',
      CRON_SECRET: cronSecret,
    }),
    launchChromium(),
  ]);
  site = `http://localhost:${server.port}`;
  // Read once first, so the new store is seeded before the dates are added.
  expect((await fetch(`${server.url}/v1/departures?trip=sample-trek`)).status).toBe(200);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The departures command as the team runs it, in a process of its own, through the server's bridge. */
async function departures(args: string[], viaNpm = false): Promise<void> {
  const run = await runCli(
    inject('fixtureSite'),
    args,
    { DATA_DIR: dataDir, OPERATIONAL_STORAGE: 'embedded' },
    { viaNpm },
  );
  expect(run.code, run.stderr).toBe(0);
}

const mailsTo = async (address: string) => (await readOutbox(dataDir)).filter((m) => m.to === address);

const link = (text: string, pathname: string) =>
  text.match(new RegExp(`${site.replace(/[.:/]/g, '\\$&')}${pathname}\\?token=[A-Za-z0-9_-]{43}`))?.[0];

async function flow(javaScript: boolean, start: string): Promise<void> {
  const mode = javaScript ? 'js' : 'no-js';
  const id = `sample-trek-${start}`;
  const email = `walker-${mode}@example.com`;
  const dates = formatDateRange(
    start,
    start.replace(/\d\d$/, (d) => String(Number(d) + 1).padStart(2, '0')),
  );
  await departures([
    'add',
    '--trip',
    'sample-trek',
    '--start',
    start,
    '--seats',
    '12',
    '--seats-left',
    '0',
    '--id',
    id,
  ]);
  // The alert job reads every second: the board is opened once the date is read.
  await untilListed(server.url, 'sample-trek', id);

  const context = await browser.newContext({
    ...stillPages,
    viewport: { width: 360, height: 800 },
    javaScriptEnabled: javaScript,
    extraHTTPHeaders: { 'x-real-ip': `198.51.100.${(nextIp += 1)}` },
  });
  try {
    const page: Page = await context.newPage();
    // 1. Watch the sold-out date from the board.
    await page.goto(`${site}/departures?trip=sample-trek&from=${start}&to=${start}`);
    const card = page.locator(`li[data-departure="${id}"]`);
    await expect.poll(() => card.getAttribute('data-status')).toBe('sold_out');
    await card.getByText('Tell me when seats open').click();
    await card.getByLabel('Your email').fill(email);
    await pictures.take(page, `${mode}-1-watch`);
    await card.getByRole('button', { name: 'Tell me' }).click();
    if (javaScript) {
      await expect
        .poll(() => card.locator('.watch-status').textContent())
        .toContain('If this address is not watching it yet');
      expect(page.url()).toContain('/departures?');
    } else {
      await page.waitForURL(/\/alerts\/watch$/);
      expect(await page.locator('h1').textContent()).toBe('Check your inbox');
      expect(await page.locator('main').textContent()).toContain(`Fixture Trek, ${dates}`);
    }
    await pictures.take(page, `${mode}-2-asked`, { fullPage: true });

    // 2. Confirm from the one email in the outbox.
    const [confirmation, ...others] = await eventually(async () => {
      const mails = await mailsTo(email);
      if (mails.length === 0) throw new Error('no confirmation email yet');
      return mails;
    });
    expect(others).toEqual([]);
    expect(confirmation!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    await page.goto(link(confirmation!.text, '/alerts/confirm')!);
    await page.getByRole('button', { name: 'Confirm the alert' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Your alert is on');
    await pictures.take(page, `${mode}-3-confirmed`, { fullPage: true });

    // 3. The operator opens seats; the job's next run sends the alert, naming the date and the seats.
    await departures(['update', id, '--seats-left', '5'], true);
    const alert = await eventually(async () => {
      const found = (await mailsTo(email)).find((m) => m.subject.startsWith('Seats open'));
      if (!found) throw new Error('no alert yet');
      return found;
    }, 30_000);
    expect(alert.subject).toBe(`Seats open: Fixture Trek, ${dates}`);
    expect(alert.text).toContain(`Fixture Trek, ${dates}. Seats opened: no seats left → 5 of 12 seats left.`);
    expect(alert.text).toContain(`${site}/treks/sample-trek/enquire?departure=${id}`);
    await page.goto(alert.text.match(/http:\/\/localhost:\d+\/treks\/sample-trek\/enquire\?departure=\S+/)![0]);
    await pictures.take(page, `${mode}-4-live-link`);

    // 4. One-click unsubscribe, as a mail client sends it: a POST with only that body, no cookie.
    const unsubscribe = alert.headers['list-unsubscribe']!.replace(/^<|>$/g, '');
    expect(alert.text).toContain(unsubscribe);
    const stopped = await fetch(unsubscribe, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(stopped.status).toBe(200);
    // Nothing is kept for it any more: its links name nothing, and a later change sends nothing.
    await page.goto(unsubscribe);
    expect(await page.locator('h1').textContent()).toBe('This link no longer works');
    const sent = (await mailsTo(email)).length;
    await departures(['update', id, '--price', '9000']);
    await departures(['update', id, '--status', 'cancelled']);
    // The timer runs every second: give it a few runs.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect(await mailsTo(email)).toHaveLength(sent);
  } finally {
    await context.close();
  }
}

describe('the alert flow at 360 px', () => {
  it('with JavaScript', () => flow(true, '2031-10-05'));
  it('without JavaScript', () => flow(false, '2031-10-12'));
});

describe("the job's route, for Vercel Cron", () => {
  it('is what vercel.json schedules, and runs the job only with Bearer $CRON_SECRET', async () => {
    const vercel = JSON.parse(readFileSync(path.join(projectRoot, 'vercel.json'), 'utf8'));
    expect(vercel.crons).toEqual([{ path: '/alerts/run', schedule: expect.any(String) }]);
    const run = (authorization?: string) =>
      fetch(`${server.url}/alerts/run`, authorization ? { headers: { Authorization: authorization } } : {});
    for (const refused of [await run(), await run(`Bearer ${cronSecret}x`), await run(cronSecret)]) {
      expect(refused.status).toBe(401);
      expect(refused.headers.get('WWW-Authenticate')).toBe('Bearer');
    }
    const ran = await run(`Bearer ${cronSecret}`);
    expect(ran.status).toBe(200);
    expect(await ran.json()).toEqual({
      removed: expect.any(Number),
      queued: expect.any(Number),
      delivered: expect.any(Number),
      failed: expect.any(Number),
    });
  });
});
