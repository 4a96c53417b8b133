/**
 * The enquiries command (`npm run enquiries -- <command>`, scripts/enquiries.ts): the team's view
 * of booking enquiries in operational storage.
 *
 *   list [filters] [--long | --json]   newest first: when each came, the trip, the dates asked
 *                          for, the visitor's phone, email and message, delivery and handling;
 *                          --long in full, --json as data; filters --trip <slug>,
 *                          --since <YYYY-MM-DD> (India's date), --state <state>
 *   show <id>              one enquiry in full and the email it sends
 *   handle <id> [--note <text>]   marks an enquiry handled, with the team's note
 *   reopen <id>            opens a handled enquiry again
 *   retry <id>             deliver one enquiry that is not delivered yet
 *   retry --all            deliver every failed enquiry, and every pending one whose delivery
 *                          began over a minute ago; a younger one may still be on its way and
 *                          is named as skipped
 *
 * Delivery uses the same settings as the server (RESEND_API_KEY … or the local outbox) and the
 * enquiry's own idempotency key, so a retry never emails the team twice. It takes its arguments,
 * environment and output streams as given, so the script passes the process's own and tests can
 * run it in theirs. An option it does not know is refused with the help text. Exit codes: 0 done,
 * 1 something was not done, 2 a usage error.
 */
import { parseArgs } from 'node:util';
import { formatIndiaDateTime } from '../../domain/format.ts';
import { readSettings, SettingsError } from '../config.ts';
import { prepareDataDir } from '../data-dir.ts';
import { directAddressSettings, openOperationalStorage } from '../storage/connection.ts';
import { composeEnquiryEmail } from './email.ts';
import { enquiryInFull, enquiryLines } from './enquiry-listing.ts';
import { retryDelivery, type Say } from './retry.ts';
import { EnquiryStore, enquiryStates, type EnquiryFilter, type EnquiryState } from './store.ts';

/** Where the command reads its settings and writes what it says. */
export interface CommandIo {
  env: Record<string, string | undefined>;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

const usage = `Usage: npm run enquiries -- <command> [options]
  list                   list enquiries, newest first: when each came, the trip, the dates
                         asked for, the visitor's name, phone, email and message, delivery
                         and whether the team has handled it
    --trip <slug>          only enquiries for this trip
    --since <YYYY-MM-DD>   only enquiries received on or after this day (India's date)
    --state <state>        only enquiries in this state: ${enquiryStates.join(', ')}
                           (undelivered: pending or failed; open: not handled yet)
    --undelivered          the same as --state undelivered
    --long                 every field in full, the whole message included
    --json                 as JSON, one object per enquiry
  show <id>              show one enquiry in full and its email
  handle <id> [--note <text>]
                         mark an enquiry handled, with a note for the team (handled again,
                         it keeps when it was first handled and takes the new note)
  reopen <id>            open a handled enquiry again
  retry <id>             deliver one undelivered enquiry
  retry --all            deliver every failed enquiry, and every pending one whose delivery
                         began over a minute ago (a younger one may still be on its way:
                         it is named, and left to that delivery or the next retry)
Exit codes: 0 done, 1 something was not done, 2 a usage error.`;

/** The options each command takes; any other is refused with the help text. */
const commandOptions = {
  list: {
    trip: { type: 'string' },
    since: { type: 'string' },
    state: { type: 'string' },
    undelivered: { type: 'boolean' },
    long: { type: 'boolean' },
    json: { type: 'boolean' },
  },
  show: {},
  handle: { note: { type: 'string' } },
  reopen: {},
  retry: { all: { type: 'boolean' } },
} as const;

type Command = keyof typeof commandOptions;

/** The longest note the team can leave on an enquiry. */
const noteMax = 500;

class UsageError extends Error {}

/** India's offset from UTC: it keeps no summer time. */
const indiaOffsetMs = 5.5 * 3_600_000;

/** India's day `day` (YYYY-MM-DD) as the moment it began there. */
function startOfIndianDay(day: string): Date {
  const moment = new Date(`${day}T00:00:00+05:30`);
  // A day that does not exist (2027-02-30) is refused, not carried into the next month.
  const real =
    !Number.isNaN(moment.getTime()) && new Date(moment.getTime() + indiaOffsetMs).toISOString().startsWith(day);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || !real)
    throw new UsageError(`--since takes a date such as 2027-05-01, not "${day}".`);
  return moment;
}

function listFilter(values: Values): EnquiryFilter {
  const state = values.undelivered ? 'undelivered' : values.state;
  if (values.undelivered && values.state && values.state !== 'undelivered')
    throw new UsageError('--undelivered is --state undelivered; give one state.');
  if (state !== undefined && !(enquiryStates as readonly string[]).includes(state))
    throw new UsageError(`--state takes one of ${enquiryStates.join(', ')}, not "${state}".`);
  return {
    tripSlug: values.trip,
    since: values.since === undefined ? undefined : startOfIndianDay(values.since),
    state: state as EnquiryState | undefined,
  };
}

/** Each state in words, as a list's last line names it. */
const stateWords: Record<EnquiryState, string> = {
  pending: 'pending',
  delivered: 'delivered',
  failed: 'failed',
  undelivered: 'not delivered yet',
  open: 'still open',
  handled: 'handled',
};

/** What a list holds, in words: " for sample-trek since 2027-05-01 still open". */
function listed(values: Values, filter: EnquiryFilter): string {
  return [
    values.trip ? ` for ${values.trip}` : '',
    values.since ? ` since ${values.since}` : '',
    filter.state ? ` ${stateWords[filter.state]}` : '',
  ].join('');
}

async function list(store: EnquiryStore, values: Values, say: Say): Promise<number> {
  if (values.long && values.json) throw new UsageError('list shows --long or --json, not both.');
  const filter = listFilter(values);
  const enquiries = await store.list(filter);
  if (values.json) {
    say.out(JSON.stringify(enquiries, null, 2));
    return 0;
  }
  const which = listed(values, filter);
  if (enquiries.length === 0) {
    const onlyUndelivered = filter.state === 'undelivered' && !values.trip && !values.since;
    say.out(
      onlyUndelivered ? 'Every enquiry has been delivered.' : which ? `No enquiries${which}.` : 'No enquiries yet.',
    );
    return 0;
  }
  for (const e of enquiries) say.out(values.long ? `${enquiryInFull(e)}\n` : enquiryLines(e));
  say.out(`${enquiries.length} enquir${enquiries.length === 1 ? 'y' : 'ies'}${which}.`);
  return 0;
}

/** What a command that names an unknown enquiry says; exit code 1. */
function noSuchEnquiry(id: string, say: Say): number {
  say.err(`No enquiry ${id}.`);
  return 1;
}

async function show(store: EnquiryStore, id: string, say: Say): Promise<number> {
  const enquiry = await store.get(id);
  if (!enquiry) return noSuchEnquiry(id, say);
  say.out(enquiryInFull(enquiry));
  say.out(`  ${'key'.padEnd(12)} ${enquiry.idempotencyKey}\n`);
  const email = composeEnquiryEmail(enquiry);
  say.out(`Subject: ${email.subject}\n\n${email.text}`);
  return 0;
}

async function handle(store: EnquiryStore, id: string, note: string | undefined, say: Say): Promise<number> {
  const text = note?.trim() || null;
  if (text && text.length > noteMax)
    throw new UsageError(`--note is ${text.length} characters; keep it to ${noteMax}.`);
  const handled = await store.markHandled(id, new Date(), text);
  if (!handled) return noSuchEnquiry(id, say);
  say.out(
    `${id}: handled ${formatIndiaDateTime(handled.handledAt!)} IST${handled.handledNote ? `, noted: ${handled.handledNote}` : ''}`,
  );
  return 0;
}

async function reopen(store: EnquiryStore, id: string, say: Say): Promise<number> {
  const opened = await store.reopen(id);
  if (!opened) return noSuchEnquiry(id, say);
  say.out(`${id}: open again${opened.handledNote ? ` (its note is kept: ${opened.handledNote})` : ''}`);
  return 0;
}

/** The options of any command, as parsed. */
interface Values {
  trip?: string;
  since?: string;
  state?: string;
  undelivered?: boolean;
  long?: boolean;
  json?: boolean;
  note?: string;
  all?: boolean;
}

/** The command's options and arguments, or a usage error naming what it does not take. */
function parsed(command: Command, args: string[]): { values: Values; ids: string[] } {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: commandOptions[command],
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Values, ids: positionals };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS')) throw error;
    const unknown = /^Unknown option '([^']+)'/.exec((error as Error).message)?.[1];
    const takes = Object.keys(commandOptions[command]).map((option) => `--${option}`);
    throw new UsageError(
      unknown
        ? `${command} does not take ${unknown}; ${takes.length ? `it takes ${takes.join(', ')}` : 'it takes no options'}.`
        : `${command}: ${(error as Error).message}`,
    );
  }
}

/** The enquiry id a command names: none for list, one for the others (retry --all names none). */
function enquiryId(command: Command, ids: string[], values: Values): string | undefined {
  if (command === 'list') {
    if (ids.length > 0) throw new UsageError(`list takes options only, not "${ids.join(' ')}".`);
    return undefined;
  }
  if (command === 'retry' && (ids.length > 1 || (values.all === true) === (ids.length === 1)))
    throw new UsageError('retry needs either an enquiry id or --all.');
  if (command !== 'retry' && ids.length !== 1) throw new UsageError(`${command} needs one enquiry id.`);
  return ids[0];
}

async function run(args: string[], env: CommandIo['env'], say: Say): Promise<number> {
  const [command, ...rest] = args;
  const asksHelp = (word: string) => word === '--help' || word === '-h';
  if (!command || command === 'help' || asksHelp(command) || rest.some(asksHelp)) {
    say.out(usage);
    return command ? 0 : 2;
  }
  if (!Object.hasOwn(commandOptions, command)) throw new UsageError(`Unknown command "${command}".`);
  const name = command as Command;
  // Checked before storage is opened: a mistyped option changes nothing and waits on nothing.
  const { values, ids } = parsed(name, rest);
  const id = enquiryId(name, ids, values);
  if (name === 'list') listFilter(values);
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
    switch (name) {
      case 'list':
        return await list(store, values, say);
      case 'show':
        return await show(store, id!, say);
      case 'handle':
        return await handle(store, id!, values.note, say);
      case 'reopen':
        return await reopen(store, id!, say);
      case 'retry':
        return await retryDelivery(store, settings, id, values.all === true, say);
    }
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
