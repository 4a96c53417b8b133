/**
 * `npm run lighthouse`: Lighthouse (Debian Chromium, offline) on the home page, a trek, an
 * expedition, the departures board and a search on it, each as a phone (Lighthouse's mobile profile: a mid-range
 * phone on a slow 4G network) and as a desktop (its desktop preset); prints the four category
 * scores of each.
 *
 *   npm run build && npm run lighthouse            # serves dist/ on a free port and audits it
 *   npm run lighthouse -- http://127.0.0.1:4321   # audits a site that is already running
 *   npm run lighthouse -- --strict                 # exits 1 when any score is below 100
 *   npm run lighthouse -- --mobile | --desktop     # one of the two only
 *   npm run lighthouse -- --runs 3                 # each page three times: the median of each score
 *   npm run lighthouse -- --page /departures       # only this page (given again for more)
 *
 * CHROME_PATH picks the browser (default /usr/bin/chromium).
 */
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import * as chromeLauncher from 'chrome-launcher';
import { siteFromArgs, tripPaths } from './local-site.ts';

const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

const args = process.argv.slice(2);
const strict = args.includes('--strict');
const forms = (['mobile', 'desktop'] as const).filter(
  (form) => !args.includes(`--${form === 'mobile' ? 'desktop' : 'mobile'}`),
);
/** The value given after `--name`, each time it is given. */
const valuesOf = (name: string) => args.flatMap((a, i) => (a === name && args[i + 1] ? [args[i + 1]!] : []));
const runs = Math.max(1, Number(valuesOf('--runs')[0] ?? 1) || 1);
const only = valuesOf('--page');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const site = await siteFromArgs(args);
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
let failed = false;
try {
  // The board twice: as first opened, and with a search made.
  const pages =
    only.length > 0
      ? only
      : [
          '/',
          ...(await tripPaths(site.origin)),
          '/departures',
          '/departures?type=trek&difficulty=Moderate&maxDays=8&minSeats=2&maxPriceInr=25000',
        ];
  for (const form of forms) {
    for (const page of pages) {
      // One request first: the audit measures a warm server, not the first query of a fresh process.
      await fetch(`${site.origin}${page}`).then((r) => r.arrayBuffer());
      const started = Date.now();
      const each: number[][] = [];
      let result: Awaited<ReturnType<typeof lighthouse>>;
      for (let run = 0; run < runs; run += 1) {
        result = await lighthouse(
          `${site.origin}${page}`,
          { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...categories] },
          form === 'desktop' ? desktopConfig : undefined,
        );
        if (!result) throw new Error(`Lighthouse returned nothing for ${page}`);
        const lhr = result.lhr;
        each.push(categories.map((c) => Math.round((lhr.categories[c]?.score ?? 0) * 100)));
        if (runs > 1) console.log(`  run ${run + 1}: ${each.at(-1)!.join(' ')}`);
      }
      const scores = categories.map((_, i) => median(each.map((run) => run[i]!)));
      if (scores.some((s) => s < 100)) failed = true;
      console.log(
        `${form.padEnd(7)} ${page}  ${categories.map((c, i) => `${c} ${scores[i]}`).join('  ')}${runs > 1 ? ` (median of ${runs})` : ''}  (${((Date.now() - started) / 1000).toFixed(1)} s)`,
      );
      // What the last run names below 100.
      if (!result) continue;
      for (const c of categories) {
        const category = result.lhr.categories[c];
        if (!category || (category.score ?? 0) >= 1) continue;
        const misses = category.auditRefs
          .map((ref) => result.lhr.audits[ref.id])
          .filter(
            (audit) =>
              audit &&
              audit.score !== null &&
              audit.score < 1 &&
              audit.scoreDisplayMode !== 'informative' &&
              audit.scoreDisplayMode !== 'manual',
          );
        for (const audit of misses) console.log(`    ${c}: ${audit?.id} (${audit?.displayValue ?? audit?.score})`);
      }
    }
  }
} finally {
  chrome.kill();
  await site.stop();
}
if (strict && failed) process.exit(1);
