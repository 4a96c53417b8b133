/**
 * `npm run enquiries -- <command>`: the team's view of booking enquiries in operational storage.
 *
 *   list [--undelivered]   newest first; --undelivered keeps pending and failed ones
 *   show <id>              one enquiry and the email it sends
 *   retry <id>             deliver one enquiry that is not delivered yet
 *   retry --all            deliver every failed enquiry, and pending ones older than a minute
 *
 * Delivery uses the same settings as the server (RESEND_API_KEY … or the local outbox) and the
 * enquiry's own idempotency key, so a retry never emails the team twice.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { deliverEnquiry } from '../service/bookings/deliver.ts';
import { composeEnquiryEmail } from '../service/bookings/email.ts';
import { mailerFromSettings } from '../service/bookings/mailer.ts';
import { EnquiryStore, type StoredEnquiry } from '../service/bookings/store.ts';
import { loadEnvFile } from '../service/env-file.ts';
import { readSettings, SettingsError, type Settings } from '../service/config.ts';
import { prepareDataDir } from '../service/data-dir.ts';
import { openOperationalStorage } from '../service/storage/connection.ts';
import { siteSettings } from '../domain/schemas/site.ts';

// Settings written in .env reach this command as they reach the server (service/env-file.ts).
loadEnvFile();

const usage = `Usage: npm run enquiries -- <command>
  list [--undelivered]   list enquiries, newest first
  show <id>              show one enquiry and its email
  retry <id>             deliver one undelivered enquiry
  retry --all            deliver every undelivered enquiry`;

/** Pending enquiries younger than this may still be in the middle of their first delivery. */
const pendingGraceMs = 60_000;

class UsageError extends Error {}

function contactEmail(settings: Settings): string {
  if (settings.CONTACT_EMAIL) return settings.CONTACT_EMAIL;
  const file = path.resolve(settings.CONTENT_DIR, 'settings', 'site.yaml');
  return siteSettings.parse(load(readFileSync(file, 'utf8'))).contactEmail;
}

function when(date: Date | null): string {
  if (!date) return '-';
  return new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Kolkata' }).format(
    date,
  );
}

function line(e: StoredEnquiry): string {
  const state =
    e.deliveryState === 'delivered'
      ? `delivered ${when(e.deliveredAt)}`
      : `${e.deliveryState} after ${e.attempts} attempt(s)`;
  const error = e.deliveryState !== 'delivered' && e.lastError ? `\n    last error: ${e.lastError}` : '';
  return `${e.id}  ${when(e.createdAt)} IST  ${e.tripSlug}  ${e.groupSize} pax  ${e.name}  ${e.phone}  [${state}]${error}`;
}

async function list(store: EnquiryStore, args: string[]): Promise<number> {
  const undelivered = args.includes('--undelivered');
  const enquiries = await store.list({ undelivered });
  if (enquiries.length === 0) {
    console.log(undelivered ? 'Every enquiry has been delivered.' : 'No enquiries yet.');
    return 0;
  }
  for (const e of enquiries) console.log(line(e));
  console.log(
    `${enquiries.length} enquir${enquiries.length === 1 ? 'y' : 'ies'}${undelivered ? ' not delivered yet' : ''}.`,
  );
  return 0;
}

async function show(store: EnquiryStore, id: string | undefined): Promise<number> {
  if (!id) throw new UsageError('show needs an enquiry id.');
  const enquiry = await store.get(id);
  if (!enquiry) {
    console.error(`No enquiry ${id}.`);
    return 1;
  }
  console.log(line(enquiry));
  console.log(
    `idempotency key: ${enquiry.idempotencyKey}${enquiry.deliveryRef ? `\ndelivered as: ${enquiry.deliveryRef}` : ''}\n`,
  );
  const email = composeEnquiryEmail(enquiry);
  console.log(`Subject: ${email.subject}\n\n${email.text}`);
  return 0;
}

async function retry(store: EnquiryStore, settings: Settings, args: string[]): Promise<number> {
  const all = args.includes('--all');
  const id = args.find((a) => !a.startsWith('--'));
  if (all === Boolean(id)) throw new UsageError('retry needs either an enquiry id or --all.');
  const now = Date.now();
  const targets = all
    ? (await store.list({ undelivered: true }))
        .filter(
          (e) => e.deliveryState === 'failed' || now - (e.lastAttemptAt ?? e.createdAt).getTime() > pendingGraceMs,
        )
        .reverse()
    : [id!];
  const mailer = mailerFromSettings(settings, { contactEmail: contactEmail(settings) });
  console.log(`Delivering through ${mailer.description}.`);
  let failures = 0;
  for (const target of targets.map((t) => (typeof t === 'string' ? t : t.id))) {
    const outcome = await deliverEnquiry(target, { enquiries: store, mailer, clock: () => new Date() });
    if (outcome.state === 'delivered') console.log(`${target}: delivered (${outcome.ref})`);
    else if (outcome.state === 'failed') {
      failures += 1;
      console.log(`${target}: not delivered: ${outcome.detail}`);
    } else {
      const known = await store.get(target);
      console.log(known ? `${target}: already delivered, nothing sent` : `${target}: no such enquiry`);
      if (!known) failures += 1;
    }
  }
  if (all)
    console.log(
      targets.length === 0 ? 'Nothing to retry.' : `${targets.length - failures} of ${targets.length} delivered.`,
    );
  return failures > 0 ? 1 : 0;
}

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (!command || command === 'help' || command === '--help') {
    console.log(usage);
    return command ? 0 : 2;
  }
  if (!['list', 'show', 'retry'].includes(command)) throw new UsageError(`Unknown command "${command}".`);
  const settings = readSettings();
  // The embedded database and the outbox (retry) are in DATA_DIR.
  prepareDataDir(settings);
  const sql = await openOperationalStorage(settings);
  if (!sql) {
    console.error('OPERATIONAL_STORAGE=off: this deployment keeps no enquiries.');
    return 1;
  }
  const store = new EnquiryStore(sql);
  try {
    if (command === 'list') return await list(store, rest);
    if (command === 'show') return await show(store, rest[0]);
    return await retry(store, settings, rest);
  } finally {
    await store.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError) console.error(`${error.message}\n\n${usage}`);
  else
    console.error(
      error instanceof SettingsError
        ? error.message
        : `enquiries: ${error instanceof Error ? error.message : String(error)}`,
    );
  process.exitCode = error instanceof UsageError ? 2 : 1;
}
