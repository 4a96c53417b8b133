/**
 * axe-core in Chromium, as every browser test runs it. Only violations are gathered (the tests
 * read nothing else: axe's `resultTypes`), and axe runs in the page itself, reaching its frames
 * (all of this site's own origin) through its own frame messaging ("legacy mode"), instead of
 * collecting each frame's part in a blank page opened for the purpose: the same rules on the same
 * nodes, frames included, without a new page and two more copies of axe for every check.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** One violation as axe reports it (axe-core's Result, as @axe-core/playwright hands it over). */
type Result = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

export async function axeViolations(page: Page, options: { include?: string } = {}): Promise<Result[]> {
  const builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).setLegacyMode(true);
  if (options.include) builder.include(options.include);
  return (await builder.analyze()).violations;
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
