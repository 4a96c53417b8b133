/**
 * `npm run enquiries -- retry` (command.ts): delivering by hand enquiries whose delivery failed
 * or was cut short, through the server's mail settings and each enquiry's own idempotency key,
 * so a retry never emails the team twice.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { siteSettings } from '../../domain/schemas/site.ts';
import type { Settings } from '../config.ts';
import { deliverEnquiry } from './deliver.ts';
import { mailerFromSettings } from './mailer.ts';
import type { EnquiryStore, StoredEnquiry } from './store.ts';

/** Lines to the command's output and its errors. */
export interface Say {
  out(text: string): void;
  err(text: string): void;
}

/**
 * A pending enquiry whose delivery began less than this ago may still be on its way: an attempt
 * gives up after the mail timeout (10 s, mailer.ts) and storage's own bound. Sending it again
 * meanwhile would race that attempt; the idempotency key would keep the team to one email, but
 * Resend refuses a second request under a key still in use, so the retry would only report a
 * failure that is not one.
 */
const pendingGraceMs = 60_000;

function contactEmail(settings: Settings): string {
  if (settings.CONTACT_EMAIL) return settings.CONTACT_EMAIL;
  const file = path.resolve(settings.CONTENT_DIR, 'settings', 'site.yaml');
  return siteSettings.parse(load(readFileSync(file, 'utf8'))).contactEmail;
}

/**
 * Delivers enquiry `id`, or with `all` every failed one and every pending one whose delivery
 * began over a minute ago (a younger one is named as skipped); resolves to the exit code.
 */
export async function retryDelivery(
  store: EnquiryStore,
  settings: Settings,
  id: string | undefined,
  all: boolean,
  say: Say,
): Promise<number> {
  const now = Date.now();
  const undelivered = all ? (await store.list({ state: 'undelivered' })).reverse() : [];
  const underWay = (e: StoredEnquiry) =>
    e.deliveryState === 'pending' && now - (e.lastAttemptAt ?? e.createdAt).getTime() <= pendingGraceMs;
  const skipped = undelivered.filter(underWay);
  const targets = all ? undelivered.filter((e) => !underWay(e)) : [id!];
  for (const e of skipped) {
    const seconds = Math.max(0, Math.round((now - (e.lastAttemptAt ?? e.createdAt).getTime()) / 1000));
    say.out(
      `${e.id}: skipped: its delivery began ${seconds} s ago and may still be on its way; retry --all takes it once that is a minute ago`,
    );
  }
  const mailer = mailerFromSettings(settings, { contactEmail: contactEmail(settings) });
  say.out(`Delivering through ${mailer.description}.`);
  let failures = 0;
  for (const target of targets.map((t) => (typeof t === 'string' ? t : t.id))) {
    const outcome = await deliverEnquiry(target, { enquiries: store, mailer, clock: () => new Date() });
    if (outcome.state === 'delivered') say.out(`${target}: delivered (${outcome.ref})`);
    else if (outcome.state === 'failed') {
      failures += 1;
      say.out(`${target}: not delivered: ${outcome.detail}`);
    } else {
      const known = await store.get(target);
      say.out(known ? `${target}: already delivered, nothing sent` : `${target}: no such enquiry`);
      if (!known) failures += 1;
    }
  }
  if (all) {
    const under = skipped.length === 0 ? '' : ` ${skipped.length} skipped: delivery under way.`;
    say.out(
      targets.length === 0
        ? `Nothing to retry.${under}`
        : `${targets.length - failures} of ${targets.length} delivered.${under}`,
    );
  }
  return failures > 0 ? 1 : 0;
}
