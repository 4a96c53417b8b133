/**
 * The enquiries command (`npm run enquiries -- <command>`, scripts/enquiries.ts): the team's view
 * of booking enquiries in operational storage.
 *
 *   list [--undelivered]   newest first; --undelivered keeps pending and failed ones
 *   show <id>              one enquiry and the email it sends
 *   retry <id>             deliver one enquiry that is not delivered yet
 *   retry --all            deliver every failed enquiry, and every pending one whose delivery
 *                          began over a minute ago; a younger one may still be on its way and
 *                          is named as skipped
 *
 * Delivery uses the same settings as the server (RESEND_API_KEY … or the local outbox) and the
 * enquiry's own idempotency key, so a retry never emails the team twice. It takes its arguments,
 * environment and output streams as given, so the script passes the process's own and tests can
 * run it in theirs. Exit codes: 0 done, 1 something was not done, 2 a usage error.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { formatIndiaDateTime } from '../../domain/format.ts';
import { siteSettings } from '../../domain/schemas/site.ts';
import { readSettings, SettingsError, type Settings } from '../config.ts';
import { prepareDataDir } from '../data-dir.ts';
import { directAddressSettings, openOperationalStorage } from '../storage/connection.ts';
import { deliverEnquiry } from './deliver.ts';
import { composeEnquiryEmail } from './email.ts';
import { mailerFromSettings } from './mailer.ts';
import { EnquiryStore, type StoredEnquiry } from './store.ts';

/** Where the command reads its settings and writes what it says. */
export interface CommandIo {
  env: Record<string, string | undefined>;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** Lines to the command's output and its errors. */
interface Say {
  out(text: string): void;
  err(text: string): void;
}

const usage = `Usage: npm run enquiries -- <command>
  list [--undelivered]   list enquiries, newest first
  show <id>              show one enquiry and its email
  retry <id>             deliver one undelivered enquiry
  retry --all            deliver every failed enquiry, and every pending one whose delivery
                         began over a minute ago (a younger one may still be on its way:
                         it is named, and left to that delivery or the next retry)`;

/**
 * A pending enquiry whose delivery began less than this ago may still be on its way: an attempt
 * gives up after the mail timeout (10 s, mailer.ts) and storage's own bound. Sending it again
 * meanwhile would race that attempt; the idempotency key would keep the team to one email, but
 * Resend refuses a second request under a key still in use, so the retry would only report a
 * failure that is not one.
 */
const pendingGraceMs = 60_000;

class UsageError extends Error {}

function contactEmail(settings: Settings): string {
  if (settings.CONTACT_EMAIL) return settings.CONTACT_EMAIL;
  const file = path.resolve(settings.CONTENT_DIR, 'settings', 'site.yaml');
  return siteSettings.parse(load(readFileSync(file, 'utf8'))).contactEmail;
}

function when(date: Date | null): string {
  return date ? formatIndiaDateTime(date) : '-';
}

function line(e: StoredEnquiry): string {
  const state =
    e.deliveryState === 'delivered'
      ? `delivered ${when(e.deliveredAt)}`
      : `${e.deliveryState} after ${e.attempts} attempt(s)`;
  const error = e.deliveryState !== 'delivered' && e.lastError ? `\n    last error: ${e.lastError}` : '';
  return `${e.id}  ${when(e.createdAt)} IST  ${e.tripSlug}  ${e.groupSize} pax  ${e.name}  ${e.phone}  [${state}]${error}`;
}

async function list(store: EnquiryStore, args: string[], say: Say): Promise<number> {
  const undelivered = args.includes('--undelivered');
  const enquiries = await store.list({ undelivered });
  if (enquiries.length === 0) {
    say.out(undelivered ? 'Every enquiry has been delivered.' : 'No enquiries yet.');
    return 0;
  }
  for (const e of enquiries) say.out(line(e));
  say.out(
    `${enquiries.length} enquir${enquiries.length === 1 ? 'y' : 'ies'}${undelivered ? ' not delivered yet' : ''}.`,
  );
  return 0;
}

async function show(store: EnquiryStore, id: string | undefined, say: Say): Promise<number> {
  if (!id) throw new UsageError('show needs an enquiry id.');
  const enquiry = await store.get(id);
  if (!enquiry) {
    say.err(`No enquiry ${id}.`);
    return 1;
  }
  say.out(line(enquiry));
  say.out(
    `idempotency key: ${enquiry.idempotencyKey}${enquiry.deliveryRef ? `\ndelivered as: ${enquiry.deliveryRef}` : ''}\n`,
  );
  const email = composeEnquiryEmail(enquiry);
  say.out(`Subject: ${email.subject}\n\n${email.text}`);
  return 0;
}

async function retry(store: EnquiryStore, settings: Settings, args: string[], say: Say): Promise<number> {
  const all = args.includes('--all');
  const id = args.find((a) => !a.startsWith('--'));
  if (all === Boolean(id)) throw new UsageError('retry needs either an enquiry id or --all.');
  const now = Date.now();
  const undelivered = all ? (await store.list({ undelivered: true })).reverse() : [];
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

async function run(args: string[], env: CommandIo['env'], say: Say): Promise<number> {
  const [command, ...rest] = args;
  if (!command || command === 'help' || command === '--help') {
    say.out(usage);
    return command ? 0 : 2;
  }
  if (!['list', 'show', 'retry'].includes(command)) throw new UsageError(`Unknown command "${command}".`);
  const settings = readSettings(env);
  // The embedded database and the outbox (retry) are in DATA_DIR.
  prepareDataDir(settings, { log: (line) => say.err(line) });
  // PostgreSQL through its direct address when one is given beside a pooled DATABASE_URL.
  const sql = await openOperationalStorage(directAddressSettings(settings));
  if (!sql) {
    say.err('OPERATIONAL_STORAGE=off: this deployment keeps no enquiries.');
    return 1;
  }
  const store = new EnquiryStore(sql);
  try {
    if (command === 'list') return await list(store, rest, say);
    if (command === 'show') return await show(store, rest[0], say);
    return await retry(store, settings, rest, say);
  } finally {
    await store.close();
  }
}

/** Runs one command; resolves to its exit code. */
export async function runEnquiriesCommand(argv: string[], io: CommandIo): Promise<number> {
  const say: Say = { out: (text) => io.stdout.write(`${text}\n`), err: (text) => io.stderr.write(`${text}\n`) };
  try {
    return await run(argv, io.env, say);
  } catch (error) {
    if (error instanceof UsageError) say.err(`${error.message}\n\n${usage}`);
    else
      say.err(
        error instanceof SettingsError
          ? error.message
          : `enquiries: ${error instanceof Error ? error.message : String(error)}`,
      );
    return error instanceof UsageError ? 2 : 1;
  }
}
