/**
 * What the offline tests share: a browser context whose pages hear the offline worker's answer
 * to each request to keep a page (`{ type: 'kept', page, kept }`, public/sw.js), collected in
 * `window.keptAnswers` for the tests to wait on.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import { stillPages } from './site.ts';

export interface KeptAnswer {
  page: string;
  kept: boolean;
}

export async function contextHearingTheWorker(
  browser: Browser,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({ ...stillPages, ...options });
  await context.addInitScript(() => {
    const answers: { page: string; kept: boolean }[] = [];
    Object.assign(window, { keptAnswers: answers });
    navigator.serviceWorker?.addEventListener('message', (event) => {
      if (event.data?.type === 'kept') answers.push(event.data);
    });
  });
  return context;
}
