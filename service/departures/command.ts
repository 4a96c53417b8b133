/**
 * The departures command (`npm run departures -- <command>`, scripts/departures.ts): the
 * operations team's tool for departures in operational storage, with the server's settings
 * (OPERATIONAL_STORAGE, DATABASE_URL, DATA_DIR). It works while `npm start` runs: the embedded
 * database is then reached through the server. It takes its arguments, environment and output
 * streams as given, so the script passes the process's own and tests can run it in theirs.
 * Exit codes: 0 done, 1 the input was refused (nothing changed), 2 storage could not be used.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readSettings, SettingsError } from '../config.ts';
import { prepareDataDir } from '../data-dir.ts';
import { directAddressSettings } from '../storage/connection.ts';
import { CsvError, departuresToCsv, readDepartureCsv } from './csv.ts';
import { departureChanges, departureInput, inputIssues } from './input.ts';
import { createDepartureStore, todayInIndia, type DepartureStore } from './store.ts';
import type { AdminDeparture } from './source.ts';
import { readKnownTrips } from './trip-files.ts';
import { knownTrip, type KnownTrip } from './trips.ts';
import { DepartureRuleError, type Issue } from './validation.ts';

/** Where the command reads its settings and writes what it says. */
export interface CommandIo {
  env: Record<string, string | undefined>;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

const usage = `Departures in operational storage.

Usage: npm run departures -- <command> [options]

  list [--trip <slug>] [--upcoming] [--json]
        Every departure, hidden ones included, earliest first.
  add --trip <slug> --start <YYYY-MM-DD> [--end <YYYY-MM-DD>] [--seats <total>]
      [--seats-left <n>] [--price <INR>] [--status <status>] [--note <text>] [--hidden] [--id <id>]
        Adds a departure. The end date defaults to the trip's length; seats left to the total;
        the status to what the seats say. The price defaults to the trip's price.
  update <id> [--seats-left <n>] [--seats <total>] [--status <status>] [--price <INR>|trip]
      [--note <text>] [--start <YYYY-MM-DD>] [--end <YYYY-MM-DD>]
        Changes a departure. Changing the seats sets the status they suggest (sold_out at 0,
        filling at 3 or fewer, open above) unless --status is given; cancelled stays cancelled.
        --status sold_out alone sets the seats left to 0.
        --price trip uses the trip's price again; --note "" clears the note.
  hide <id>...          Takes departures off every public page, feed and the API.
  publish <id>...       Shows hidden departures again.
  import <file.csv>     Adds or replaces departures from a CSV file (columns as in export).
                        Every row is checked first; one bad row imports nothing.
  export [<file.csv>]   Writes every departure as CSV (to the terminal without a file).
  help                  This text.

Statuses: open, filling, sold_out, cancelled.
Settings come from the environment, as for the server: OPERATIONAL_STORAGE, DATABASE_URL
(or the direct DATABASE_URL_UNPOOLED beside a pooled one), DATA_DIR, CONTENT_DIR (where the
trips are). Changes show on the site within a minute.
Exit codes: 0 done, 1 input refused (nothing changed), 2 storage could not be used.`;

/** Input the tool refuses; exit code 1. */
class Refused extends Error {
  readonly issues: Issue[];
  constructor(issues: Issue[]) {
    super(issues.map((i) => `${i.field}: ${i.message}`).join('\n'));
    this.issues = issues;
  }
}

const optionOf: Record<string, string> = {
  tripSlug: '--trip',
  startDate: '--start',
  endDate: '--end',
  seatsTotal: '--seats',
  seatsLeft: '--seats-left',
  priceInr: '--price',
  status: '--status',
  note: '--note',
  id: '--id',
  published: '--hidden',
};

const options = {
  trip: { type: 'string' },
  start: { type: 'string' },
  end: { type: 'string' },
  seats: { type: 'string' },
  'seats-left': { type: 'string' },
  price: { type: 'string' },
  status: { type: 'string' },
  note: { type: 'string' },
  id: { type: 'string' },
  hidden: { type: 'boolean' },
  upcoming: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

function only(command: string, values: Values, allowed: (keyof Values)[]): void {
  const extra = Object.keys(values).filter((k) => !allowed.includes(k as keyof Values));
  if (extra.length)
    throw new Refused(
      extra.map((k) => ({
        field: `--${k}`,
        message: `is not an option of ${command}; see npm run departures -- help`,
      })),
    );
}

function fields(values: Values): Record<string, unknown> {
  const map: [keyof Values, string][] = [
    ['trip', 'tripSlug'],
    ['start', 'startDate'],
    ['end', 'endDate'],
    ['seats', 'seatsTotal'],
    ['seats-left', 'seatsLeft'],
    ['price', 'priceInr'],
    ['status', 'status'],
    ['note', 'note'],
    ['id', 'id'],
  ];
  return Object.fromEntries(
    map.filter(([option]) => values[option] !== undefined).map(([option, field]) => [field, values[option]]),
  );
}

/** Names CLI fields by their option, so "--seats-left: …" points at what to retype. */
function asOptions(issues: Issue[], positional: string[] = []): Issue[] {
  return issues.map((i) =>
    optionOf[i.field] && !positional.includes(i.field) ? { ...i, field: `${optionOf[i.field]} (${i.field})` } : i,
  );
}

/** The store's rule errors, with fields named by the options that set them. */
async function namingOptions<T>(write: Promise<T>, positional: string[] = []): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (error instanceof DepartureRuleError) throw new Refused(asOptions(error.issues, positional));
    throw error;
  }
}

function pad(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows
    .map((r) =>
      r
        .map((cell, c) => cell.padEnd(widths[c]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function table(departures: readonly AdminDeparture[], trips: readonly KnownTrip[]): string {
  if (departures.length === 0) return 'No departures.';
  const price = (d: AdminDeparture) => {
    if (d.priceInr !== null) return `₹${d.priceInr.toLocaleString('en-IN')}`;
    const tripPrice = knownTrip(trips, d.tripSlug)?.priceInr;
    return tripPrice ? `(trip) ₹${tripPrice.toLocaleString('en-IN')}` : '(trip)';
  };
  return pad([
    ['ID', 'TRIP', 'START', 'END', 'STATUS', 'SEATS LEFT', 'PRICE', 'SHOWN', 'NOTE'],
    ...departures.map((d) => [
      d.id,
      d.tripSlug,
      d.startDate,
      d.endDate,
      d.status,
      d.seatsLeft === null ? '-' : `${d.seatsLeft}/${d.seatsTotal ?? '?'}`,
      price(d),
      d.published ? 'yes' : 'hidden',
      d.note ?? '',
    ]),
  ]);
}

function describe(d: AdminDeparture): string {
  const seats = d.seatsLeft === null ? 'seats not set' : `${d.seatsLeft} of ${d.seatsTotal ?? '?'} seats left`;
  return `${d.id}: ${d.tripSlug}, ${d.startDate} to ${d.endDate}, ${d.status}, ${seats}${d.published ? '' : ', hidden'}`;
}

async function run(
  argv: string[],
  store: () => DepartureStore,
  trips: readonly KnownTrip[],
  out: CommandIo['stdout'],
): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  const [command = 'help', ...args] = positionals;
  const say = (text: string) => out.write(`${text}\n`);

  switch (command) {
    case 'help':
      say(usage);
      return;
    case 'list': {
      only('list', values, ['trip', 'upcoming', 'json']);
      if (args.length) throw new Refused([{ field: 'list', message: `takes no arguments; got ${args.join(' ')}` }]);
      let all = await store().listAll(values.trip ? { tripSlug: values.trip } : {});
      if (values.upcoming) all = all.filter((d) => d.startDate >= todayInIndia());
      say(values.json ? JSON.stringify(all, null, 2) : table(all, trips));
      return;
    }
    case 'add': {
      only('add', values, ['trip', 'start', 'end', 'seats', 'seats-left', 'price', 'status', 'note', 'id', 'hidden']);
      if (args.length) throw new Refused([{ field: 'add', message: `takes options only; got ${args.join(' ')}` }]);
      if (!values.trip || !values.start) {
        throw new Refused(
          asOptions(
            [...(values.trip ? [] : ['tripSlug']), ...(values.start ? [] : ['startDate'])].map((field) => ({
              field,
              message: 'is required',
            })),
          ),
        );
      }
      const parsed = departureInput.safeParse({ ...fields(values), ...(values.hidden ? { published: false } : {}) });
      if (!parsed.success) throw new Refused(asOptions(inputIssues(parsed.error)));
      say(`Added ${describe(await namingOptions(store().add(parsed.data)))}`);
      return;
    }
    case 'update': {
      only('update', values, ['seats-left', 'seats', 'status', 'price', 'note', 'start', 'end']);
      const [id, ...rest] = args;
      if (!id || rest.length)
        throw new Refused([
          {
            field: 'update',
            message: 'needs exactly one departure id, for example: update hampta-pass-trek-2027-06-05 --seats-left 4',
          },
        ]);
      const changes = fields(values);
      if (Object.keys(changes).length === 0)
        throw new Refused([
          {
            field: 'update',
            message: 'nothing to change; give --seats-left, --seats, --status, --price, --note, --start or --end',
          },
        ]);
      const parsed = departureChanges.safeParse(changes);
      if (!parsed.success) throw new Refused(asOptions(inputIssues(parsed.error)));
      const updated = await namingOptions(store().update(id, parsed.data), ['id']);
      say(`Updated ${describe(updated)}`);
      if (parsed.data.status === 'sold_out' && parsed.data.seatsLeft === undefined && updated.seatsLeft === 0)
        say('Seats left are 0 now: sold_out means no seats are left.');
      return;
    }
    case 'hide':
    case 'publish': {
      only(command, values, []);
      if (!args.length) throw new Refused([{ field: command, message: 'needs one or more departure ids' }]);
      const changed = await store().setPublished(args, command === 'publish');
      for (const d of changed) say(`${command === 'hide' ? 'Hidden' : 'Published'}: ${describe(d)}`);
      return;
    }
    case 'import': {
      only('import', values, []);
      const [file, ...rest] = args;
      if (!file || rest.length)
        throw new Refused([{ field: 'import', message: 'needs one CSV file, for example: import departures.csv' }]);
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (error) {
        throw new Refused([
          { field: file, message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` },
        ]);
      }
      const rows = readDepartureCsv(text);
      const issues: Issue[] = [];
      const inputs = rows.flatMap(({ line, record }) => {
        const parsed = departureInput.safeParse(record);
        if (parsed.success) return [{ line, input: parsed.data }];
        issues.push(...inputIssues(parsed.error).map((i) => ({ ...i, field: `line ${line}, ${i.field}` })));
        return [];
      });
      if (issues.length) throw new Refused(issues);
      const result = await store().importDepartures(inputs);
      say(
        `Imported ${path.basename(file)}: ${result.added.length} added, ${result.updated.length} updated, ${result.unchanged.length} unchanged.`,
      );
      return;
    }
    case 'export': {
      only('export', values, ['trip']);
      const [file, ...rest] = args;
      if (rest.length) throw new Refused([{ field: 'export', message: 'takes at most one file name' }]);
      const csv = departuresToCsv(await store().listAll(values.trip ? { tripSlug: values.trip } : {}));
      if (file) {
        writeFileSync(file, csv);
        say(`Wrote ${file}.`);
      } else {
        out.write(csv);
      }
      return;
    }
    default:
      throw new Refused([
        {
          field: command,
          message: 'is not a command; the commands are list, add, update, hide, publish, import, export and help',
        },
      ]);
  }
}

function refusal(error: unknown): Issue[] | null {
  if (error instanceof Refused || error instanceof DepartureRuleError || error instanceof CsvError) return error.issues;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))
    return [{ field: 'options', message: `${(error as Error).message}; see npm run departures -- help` }];
  return null;
}

/** Runs one command; resolves to its exit code. */
export async function runDeparturesCommand(argv: string[], io: CommandIo): Promise<number> {
  let store: DepartureStore | null = null;
  try {
    // PostgreSQL through its direct address when one is given beside a pooled DATABASE_URL.
    const settings = directAddressSettings(readSettings(io.env));
    // Only the embedded database lives in DATA_DIR; with PostgreSQL this command writes nothing there.
    if (settings.OPERATIONAL_STORAGE === 'embedded')
      prepareDataDir(settings, { log: (line) => io.stderr.write(`${line}\n`) });
    let trips: KnownTrip[];
    try {
      trips = readKnownTrips(path.resolve(settings.CONTENT_DIR));
    } catch (error) {
      throw new Refused([{ field: 'CONTENT_DIR', message: (error as Error).message }]);
    }
    const open = () => {
      if (store) return store;
      store = createDepartureStore(settings, trips);
      if (!store)
        throw new Error(
          'OPERATIONAL_STORAGE is off, so there is no storage to read or change; set it to embedded or postgres',
        );
      return store;
    };
    await run(argv, open, trips, io.stdout);
    return 0;
  } catch (error) {
    const issues = refusal(error);
    if (issues) {
      io.stderr.write(`Nothing was changed:\n${issues.map((i) => `  ${i.field}: ${i.message}`).join('\n')}\n`);
      return 1;
    }
    const message =
      error instanceof SettingsError ? error.message : error instanceof Error ? error.message : String(error);
    io.stderr.write(`Storage could not be used: ${message}\n`);
    return 2;
  } finally {
    await (store as DepartureStore | null)?.close().catch(() => undefined);
  }
}
