/**
 * axe-core in Chromium, as every browser test runs it. Only violations are gathered (the tests
 * read nothing else: axe's `resultTypes`), and axe runs in the page itself, reaching its frames
 * (all of this site's own origin) through its own frame messaging ("legacy mode"), instead of
 * collecting each frame's part in a blank page opened for the purpose: the same rules on the same
 * nodes, frames included, without a new page and two more copies of axe for every check.
 *
 * axe goes into each document once: @axe-core/playwright evaluates axe's whole source (half a
 * megabyte) in the main frame twice and in every other frame once on each check, which cost more
 * than a check of the colour rules itself. Each check here first puts axe in the frames that lack
 * it, then has the builder evaluate nothing more than its configuration.
 */
import { AxeBuilder } from '@axe-core/playwright';
import axe from 'axe-core';
import type { Browser, Frame, Page } from 'playwright-core';
import { stillPages } from './site.ts';

/** One violation as axe reports it (axe-core's Result, as @axe-core/playwright hands it over). */
type Result = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

/** axe in `frame`'s document, unless it is there already; a frame that cannot be reached is left, as the builder leaves it. */
async function withAxe(frame: Frame): Promise<void> {
  try {
    const present = await frame.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function');
    if (!present) await frame.evaluate(axe.source);
  } catch {
    // Detached while being checked: not part of the page any more.
  }
}

export async function axeViolations(
  page: Page,
  options: { include?: string; rules?: readonly string[] } = {},
): Promise<Result[]> {
  await Promise.all(page.frames().map(withAxe));
  // An empty statement for the builder's own injection: each frame has axe from above.
  const builder = new AxeBuilder({ page, axeSource: ';' }).options({ resultTypes: ['violations'] }).setLegacyMode(true);
  if (options.include) builder.include(options.include);
  if (options.rules) builder.withRules([...options.rules]);
  return (await builder.analyze()).violations;
}

/** The rules of axe that read colours: the only ones whose answer changes with the colour scheme. */
const colourRules = ['color-contrast', 'link-in-text-block'] as const;

/**
 * axe's findings on the page as it stands: every rule in the light scheme, and again in the dark
 * one the rules that read colours (the scheme changes colours only), each finding named with its
 * scheme.
 */
export function axeInEachScheme(page: Page): Promise<string[]> {
  return inEachScheme(page, async (scheme) =>
    (await axeViolations(page, scheme === 'dark' ? { rules: colourRules } : {})).map(violationWhere),
  );
}

/** A page with JavaScript per browser, kept for checking markup (see `axeOfMarkup`). */
const markupPages = new WeakMap<Browser, Promise<Page>>();

/**
 * axe needs JavaScript: a page seen without it is checked as its markup (`markup`, or the page's
 * own), served at the seen page's origin in a page of the same size with JavaScript on, in each
 * colour scheme, so styles and contrast are the real ones. One such page per browser serves every
 * check: a new context for each would start a renderer and compile axe again.
 */
export async function axeOfMarkup(seen: Page, markup?: string): Promise<string[]> {
  const browser = seen.context().browser();
  if (!browser) throw new Error('the page has no browser to check its markup in');
  const body = markup ?? (await seen.content());
  const address = `${new URL(seen.url()).origin}/__markup`;
  let made = markupPages.get(browser);
  if (!made) {
    made = browser.newContext(stillPages).then((context) => context.newPage());
    markupPages.set(browser, made);
  }
  const page = await made;
  await page.unrouteAll();
  await page.route(address, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body }));
  await page.setViewportSize(seen.viewportSize() ?? { width: 1280, height: 800 });
  await page.goto(address);
  await page.waitForLoadState('load');
  return axeInEachScheme(page);
}

/** A violation as the tests print it: the rule and where. */
export function violationWhere(violation: Result): string {
  return `${violation.id}: ${violation.nodes.map((n) => n.target.join(' ')).join(', ')}`;
}

export type ColourScheme = 'light' | 'dark';

/**
 * Runs `look` on the page as it stands in each colour scheme (emulated, then light again), and
 * gathers what it finds, each finding named with its scheme: contrast is checked in both. No
 * script of the site reads the scheme, so the page needs no new load for the other one.
 */
export async function inEachScheme(
  page: Page,
  look: (scheme: ColourScheme) => Promise<string[] | void>,
): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const finding of (await look(scheme)) ?? []) found.push(`${scheme}: ${finding}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}
