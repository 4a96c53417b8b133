/**
 * Pictures of pages for people to look at, written to test-results/<folder>/ when a run asks for
 * them with TEST_PICTURES=1 (`TEST_PICTURES=1 npm run test:site`, or one file). A picture asserts
 * nothing, and the hundred or so of a whole run took about 30 s of its CPU: Chromium lays a page
 * out again at its full height for each, rasterises it and encodes the PNG. So a run without the
 * variable takes none, and what the tests check is the same either way.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { projectRoot } from '../helpers/project.ts';
import { inEachScheme } from './axe.ts';

/** Whether this run takes pictures: TEST_PICTURES set to anything but empty or 0. */
const picturesTaken = !['', '0'].includes(process.env.TEST_PICTURES ?? '');

/** What a picture shows: a page (its first screen, or all of it with `fullPage`) or one element of it. */
type Subject = Page | Locator;

const pageOf = (subject: Subject): Page => ('page' in subject ? subject.page() : subject);

export interface Pictures {
  /** test-results/<folder>/<name>.png. */
  take(subject: Subject, name: string, options?: { fullPage?: boolean }): Promise<void>;
  /** The same in each colour scheme: <name>-light.png and <name>-dark.png, the whole page unless `fullPage` is false. */
  inEachScheme(subject: Subject, name: string, options?: { fullPage?: boolean }): Promise<void>;
}

export function picturesIn(folder: string): Pictures {
  const dir = path.join(projectRoot, 'test-results', folder);
  const take = async (subject: Subject, name: string, { fullPage = false } = {}) => {
    if (!picturesTaken) return;
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${name}.png`);
    await ('page' in subject ? subject.screenshot({ path: file }) : subject.screenshot({ path: file, fullPage }));
  };
  return {
    take,
    async inEachScheme(subject, name, { fullPage = true } = {}) {
      if (!picturesTaken) return;
      await inEachScheme(pageOf(subject), (scheme) => take(subject, `${name}-${scheme}`, { fullPage }));
    },
  };
}
