/**
 * `npm run screenshots`: the pictures of the site in docs/screenshots/, shown in the README, taken
 * with Debian Chromium from the last build (or a running site named by its URL) as a visitor sees
 * it: a trek and an expedition on a phone, Markha Valley at 360 px light and dark and at 1280 px,
 * its first two printed pages (Chromium's own PDF, each page drawn by poppler's pdftoppm), the
 * departure search on a phone (its form opened, filled in, above the dates it found), and the
 * departure search as an MCP App view in a chat client (the official client and the ext-apps
 * AppBridge: scripts/interop/mcp-app-host/) at 360 and 720 px, light and dark, the first date's
 * enquiry form open on the phone.
 *
 *   npm run build && npm run screenshots
 *   npm run screenshots -- http://127.0.0.1:4321
 *   npm run screenshots -- --only mcp-app        (the pictures whose file names start so)
 *
 * CHROME_PATH picks the browser (default /usr/bin/chromium).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { projectRoot, siteFromArgs, tripPaths } from './local-site.ts';
import { openHost } from './interop/mcp-app-host/index.ts';

const out = path.join(projectRoot, 'docs', 'screenshots');
const phone = { width: 360, height: 1480 };
const desktop = { width: 1280, height: 800 };
const printedTrip = '/treks/markha-valley-trek';

interface Shot {
  file: string;
  path: string;
  viewport: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
  /** Clicked before the picture is taken (a folded part to show open). */
  click?: string;
}

/** A search as a person asks it: a moderate trek of up to 8 days, for two, under ₹25,000 each. */
const search = '/departures?type=trek&difficulty=Moderate&maxDays=8&minSeats=2&maxPriceInr=25000';

/** Waits until the page's own scripts have put the live dates in, where the page has them. */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready);
}

function havePdftoppm(): boolean {
  try {
    execFileSync('pdftoppm', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const args = process.argv.slice(2);
const only = args.includes('--only') ? (args[args.indexOf('--only') + 1] ?? '') : '';
/** Whether the picture in `file` is one to take this time. */
const wanted = (file: string) => file.startsWith(only);
const site = await siteFromArgs(args.filter((arg, i) => arg !== '--only' && args[i - 1] !== '--only'));
const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium' });
try {
  const [trek, expedition] = await tripPaths(site.origin);
  const shots: Shot[] = [
    { file: 'trek-360.png', path: trek, viewport: phone },
    { file: 'expedition-360.png', path: expedition, viewport: phone },
    { file: 'trip-360-light.png', path: printedTrip, viewport: phone, colorScheme: 'light' },
    { file: 'trip-360-dark.png', path: printedTrip, viewport: phone, colorScheme: 'dark' },
    { file: 'trip-1280.png', path: printedTrip, viewport: desktop },
    { file: 'search-360.png', path: search, viewport: phone, click: 'details.search-filters > summary' },
  ];
  for (const shot of shots.filter((s) => wanted(s.file))) {
    const context = await browser.newContext({
      viewport: shot.viewport,
      colorScheme: shot.colorScheme ?? 'light',
      deviceScaleFactor: 1,
    });
    const page = await context.newPage();
    const response = await page.goto(`${site.origin}${shot.path}`);
    if (!response?.ok()) throw new Error(`${shot.path} answered ${response?.status()}`);
    await settled(page);
    if (shot.click) await page.click(shot.click);
    await page.screenshot({ path: path.join(out, shot.file) });
    console.log(
      `docs/screenshots/${shot.file}  ${shot.path} at ${shot.viewport.width} px${shot.colorScheme ? `, ${shot.colorScheme}` : ''}`,
    );
    await context.close();
  }

  for (const width of [360, 720]) {
    for (const theme of ['light', 'dark'] as const) {
      const file = `mcp-app-${width}-${theme}.png`;
      if (!wanted(file)) continue;
      const host = await openHost(browser, { width, height: 1600 });
      await host.page.evaluate((url) => window.host.connect(url, '2026-07-28'), `${site.origin}/mcp`);
      const args = Object.fromEntries(new URLSearchParams(search.split('?')[1]));
      await host.page.evaluate(
        ([shown, scheme]) =>
          window.host.show('list_departures', shown, {
            theme: scheme,
            containerDimensions: { maxHeight: 1400 },
          }),
        [args, theme] as const,
      );
      await host.view.locator('li.card').first().waitFor();
      if (width === 360) {
        await host.view.getByRole('button', { name: 'Enquire for this date' }).first().click();
        await host.view.locator('form.enquiry').waitFor();
      }
      await host.page.waitForTimeout(400);
      await host.page.locator('#view').screenshot({ path: path.join(out, file) });
      console.log(`docs/screenshots/${file}  the MCP App view of ${search} at ${width} px, ${theme}`);
      await host.close();
    }
  }

  if (!wanted('trip-print-')) {
    // Not asked for this time.
  } else if (!havePdftoppm()) {
    console.log('Printed pages skipped: pdftoppm not found (Debian: apt-get install poppler-utils).');
  } else {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${site.origin}${printedTrip}`);
    await settled(page);
    const scratch = mkdtempSync(path.join(tmpdir(), 'screenshots-'));
    try {
      const pdf = path.join(scratch, 'trip.pdf');
      writeFileSync(pdf, await page.pdf({ format: 'A4', printBackground: true }));
      // 72 dpi: an A4 page as 596 × 842 pixels.
      execFileSync('pdftoppm', ['-png', '-r', '72', '-f', '1', '-l', '2', pdf, path.join(scratch, 'page')]);
      const pages = readdirSync(scratch)
        .filter((f) => f.startsWith('page'))
        .sort();
      pages.forEach((file, i) => {
        renameSync(path.join(scratch, file), path.join(out, `trip-print-${i + 1}.png`));
        console.log(`docs/screenshots/trip-print-${i + 1}.png  ${printedTrip} printed, page ${i + 1}`);
      });
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    await context.close();
  }
} finally {
  await browser.close();
  await site.stop();
}
