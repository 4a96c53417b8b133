/**
 * The team's enquiries command (service/bookings/command.ts) as one suite run on every kind of
 * operational storage, through its entry function in this process: what a list shows (when each
 * enquiry came, the dates asked for, the visitor's email and message), `--long` and `--json`, the
 * filters, an enquiry marked handled with a note and opened again, and the options it refuses.
 * The embedded database runs it in tests/bookings/command.test.ts; PostgreSQL directly and
 * through PgBouncer in tests/bookings/postgres.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runEnquiriesCommand } from '../../service/bookings/command.ts';
import { EnquiryStore, type StoredEnquiry } from '../../service/bookings/store.ts';
import { readSettings } from '../../service/config.ts';
import { openOperationalStorage } from '../../service/storage/connection.ts';

type Env = Record<string, string>;

/** Registers the suite on the storage `env` names (its settings, as the command reads them). */
export function enquiriesCommandSuite(storage: string, env: () => Env): void {
  describe(`npm run enquiries on ${storage}`, () => suite(env));
}

/** Runs the command in this process with `env` and nothing else; its exit code and all it wrote. */
export async function enquiries(env: Env, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runEnquiriesCommand(args, {
    env,
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
  });
  return { code, out, err };
}

const context = (slug: string) => ({
  trip: { name: slug === 'sample-trek' ? 'Fixture Trek' : 'Fixture Expedition', url: `http://127.0.0.1:4321/${slug}` },
  callbackPromise: null,
});

/** A message longer than a list shows, so the list cuts it. */
const longMessage = `We are a family of four and would like to know ${'whether the route suits children, '.repeat(5)}the end.`;

function suite(env: () => Env): void {
  // Received in 2030, after anything the other tests of the file keep, so `--since 2030-03-01` lists these alone.
  let asha: StoredEnquiry;
  let family: StoredEnquiry;
  let failed: StoredEnquiry;

  beforeAll(async () => {
    const store = new EnquiryStore((await openOperationalStorage(readSettings(env())))!);
    try {
      asha = await store.add(
        {
          tripSlug: 'sample-trek',
          name: 'Asha Rao',
          phone: '+91 98765 43210',
          email: 'asha@example.com',
          groupSize: 2,
          preferredDeparture: 'June 2031',
          message: 'We are two friends from Pune.\nCan we bring our own tent?',
        },
        context('sample-trek'),
        new Date('2030-03-01T04:30:00Z'),
      );
      family = await store.add(
        {
          tripSlug: 'sample-expedition',
          name: 'Pema Lhamo',
          phone: '+977 980-1234567',
          email: null,
          groupSize: 4,
          preferredDeparture: null,
          message: longMessage,
        },
        context('sample-expedition'),
        new Date('2030-03-05T10:00:00Z'),
      );
      failed = await store.add(
        {
          tripSlug: 'sample-trek',
          name: 'Karma Sherpa',
          phone: '+91 99999 11111',
          email: 'karma@example.com',
          groupSize: 1,
          preferredDeparture: 'sample-trek-2031-06-10',
          message: null,
        },
        context('sample-trek'),
        new Date('2030-03-09T12:00:00Z'),
      );
      await store.beginAttempt(failed.id, new Date('2030-03-09T12:00:01Z'));
      await store.markFailed(failed.id, 'Resend: HTTP 500: Something broke');
    } finally {
      await store.close();
    }
  }, 120_000);

  it('lists each enquiry with when it came, the dates asked for, email and message, newest first', async () => {
    const list = await enquiries(env(), 'list', '--since', '2030-03-01');
    expect(list.err).toBe('');
    expect(list.code).toBe(0);
    const lines = list.out.split('\n');
    const at = (id: string) => lines.findIndex((line) => line.startsWith(id));
    expect([at(failed.id), at(family.id), at(asha.id)].every((i) => i >= 0)).toBe(true);
    expect(at(failed.id)).toBeLessThan(at(family.id));
    expect(at(family.id)).toBeLessThan(at(asha.id));
    expect(lines[at(asha.id)]).toBe(
      `${asha.id}  1 Mar 2030, 10:00 am IST  sample-trek  dates: June 2031  2 pax  [pending after 0 attempt(s)]  open`,
    );
    expect(lines[at(asha.id) + 1]).toBe('    Asha Rao  +91 98765 43210  asha@example.com');
    // A message of several lines on one line of the list.
    expect(lines[at(asha.id) + 2]).toBe('    message: We are two friends from Pune. / Can we bring our own tent?');
    expect(lines[at(family.id) + 1]).toBe('    Pema Lhamo  +977 980-1234567  no email');
    expect(lines[at(family.id) + 2]).toMatch(/^ {4}message: We are a family of four .{60,}…$/);
    expect(lines[at(failed.id)]).toContain('dates: sample-trek-2031-06-10  1 pax  [failed after 1 attempt(s)]  open');
    expect(lines[at(failed.id) + 2]).toBe('    last error: Resend: HTTP 500: Something broke');
    expect(list.out).toContain('3 enquiries since 2030-03-01.');

    const long = await enquiries(env(), 'list', '--since', '2030-03-05', '--long');
    expect(long.code).toBe(0);
    expect(long.out).not.toContain(asha.id);
    // Every field, the whole message.
    expect(long.out).toContain(`${family.id}\n  received     5 Mar 2030, 3:30 pm IST\n`);
    expect(long.out).toContain(
      '  trip         Fixture Expedition (sample-expedition), http://127.0.0.1:4321/sample-expedition\n',
    );
    expect(long.out).toContain('  group        4 people\n');
    expect(long.out).toContain(`  message      ${longMessage}\n`);
    expect(long.out).toContain('  team         open\n');

    const json = await enquiries(env(), 'list', '--since', '2030-03-01', '--json');
    expect(json.code).toBe(0);
    const data = JSON.parse(json.out) as Record<string, unknown>[];
    expect(data.map((e) => e.id)).toEqual([failed.id, family.id, asha.id]);
    expect(data[2]).toMatchObject({
      tripSlug: 'sample-trek',
      createdAt: '2030-03-01T04:30:00.000Z',
      email: 'asha@example.com',
      preferredDeparture: 'June 2031',
      message: 'We are two friends from Pune.\nCan we bring our own tent?',
      deliveryState: 'pending',
      handledAt: null,
      handledNote: null,
    });
  });

  it('filters by trip, by the day of India it came from, and by state, each narrowing the list', async () => {
    const ids = async (...args: string[]) => {
      const result = await enquiries(env(), 'list', '--json', ...args);
      expect(result.err).toBe('');
      return (JSON.parse(result.out) as { id: string }[]).map((e) => e.id);
    };
    expect(await ids('--since', '2030-03-01', '--trip', 'sample-trek')).toEqual([failed.id, asha.id]);
    // 5 March in India began at 18:30 UTC on the 4th; the family's came at 15:30 IST on the 5th.
    expect(await ids('--since', '2030-03-05')).toEqual([failed.id, family.id]);
    expect(await ids('--since', '2030-03-06')).toEqual([failed.id]);
    expect(await ids('--since', '2030-03-01', '--state', 'failed')).toEqual([failed.id]);
    expect(await ids('--since', '2030-03-01', '--state', 'undelivered')).toEqual([failed.id, family.id, asha.id]);
    expect(await ids('--since', '2030-03-01', '--undelivered', '--trip', 'sample-expedition')).toEqual([family.id]);
    expect(await ids('--since', '2030-03-01', '--state', 'delivered')).toEqual([]);
    const none = await enquiries(env(), 'list', '--trip', 'no-such-trip');
    expect(none.out).toBe('No enquiries for no-such-trip.\n');
  });

  it('marks an enquiry handled with the team note, lists it so, and opens it again', async () => {
    const handled = await enquiries(env(), 'handle', asha.id, '--note', 'Called back; booked for 10 June');
    expect(handled.err).toBe('');
    expect(handled.code).toBe(0);
    expect(handled.out).toMatch(
      new RegExp(
        `^${asha.id}: handled \\d+ \\w+ \\d{4}, \\d+:\\d\\d [ap]m IST, noted: Called back; booked for 10 June\\n$`,
      ),
    );
    const open = async () =>
      (
        JSON.parse((await enquiries(env(), 'list', '--since', '2030-03-01', '--state', 'open', '--json')).out) as {
          id: string;
        }[]
      ).map((e) => e.id);
    expect(await open()).toEqual([failed.id, family.id]);
    const [kept] = JSON.parse(
      (await enquiries(env(), 'list', '--since', '2030-03-01', '--state', 'handled', '--json')).out,
    ) as { id: string; handledAt: string; handledNote: string }[];
    expect(kept).toMatchObject({ id: asha.id, handledNote: 'Called back; booked for 10 June' });

    const listed = await enquiries(env(), 'list', '--since', '2030-03-01', '--trip', 'sample-trek');
    expect(listed.out).toMatch(new RegExp(`${asha.id} .*\\]  handled \\d+ \\w+ \\d{4}, `));
    expect(listed.out).toContain('    note: Called back; booked for 10 June\n');

    // Handled again: the first moment stays, the new note is taken.
    await enquiries(env(), 'handle', asha.id, '--note', 'Paid the deposit');
    const [again] = JSON.parse(
      (await enquiries(env(), 'list', '--since', '2030-03-01', '--state', 'handled', '--json')).out,
    ) as { handledAt: string; handledNote: string }[];
    expect(again).toEqual(expect.objectContaining({ handledAt: kept!.handledAt, handledNote: 'Paid the deposit' }));

    const reopened = await enquiries(env(), 'reopen', asha.id);
    expect(reopened.code).toBe(0);
    expect(reopened.out).toBe(`${asha.id}: open again (its note is kept: Paid the deposit)\n`);
    expect(await open()).toEqual([failed.id, family.id, asha.id]);

    const unknown = await enquiries(env(), 'handle', 'enq-20300101-aaaaaaaaaa');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe('No enquiry enq-20300101-aaaaaaaaaa.\n');
  });

  it('refuses an option or a value it does not know with the help text and exit code 2, changing nothing', async () => {
    const cases: [string[], string][] = [
      [
        ['list', '--json', '--colour', 'red'],
        'list does not take --colour; it takes --trip, --since, --state, --undelivered, --long, --json.',
      ],
      [['list', '--trips', 'sample-trek'], 'list does not take --trips;'],
      [
        ['list', '--state', 'lost'],
        '--state takes one of pending, delivered, failed, undelivered, open, handled, not "lost".',
      ],
      [['list', '--since', 'last week'], '--since takes a date such as 2027-05-01, not "last week".'],
      [['list', '--since', '2030-02-30'], '--since takes a date such as 2027-05-01, not "2030-02-30".'],
      [['list', '--long', '--json'], 'list shows --long or --json, not both.'],
      [['list', 'everything'], 'list takes options only, not "everything".'],
      [['handle', asha.id, '--notes', 'x'], 'handle does not take --notes; it takes --note.'],
      [['show', asha.id, '--json'], 'show does not take --json; it takes no options.'],
      [['list', '--trip'], "list: Option '--trip <value>' argument missing"],
      [['handle'], 'handle needs one enquiry id.'],
      [['retry', '--al'], 'retry does not take --al; it takes --all.'],
      [['retry', '--all', failed.id], 'retry needs either an enquiry id or --all.'],
      [['forget', asha.id], 'Unknown command "forget".'],
    ];
    for (const [args, message] of cases) {
      const refused = await enquiries(env(), ...args);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.out, args.join(' ')).toBe('');
      expect(refused.err, args.join(' ')).toContain(message);
      expect(refused.err, args.join(' ')).toContain('\n\nUsage: npm run enquiries -- <command> [options]');
    }
    const help = await enquiries(env(), 'list', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('--since <YYYY-MM-DD>');
    const [unchanged] = JSON.parse((await enquiries(env(), 'list', '--since', '2030-03-09', '--json')).out) as {
      handledAt: string | null;
      deliveryState: string;
    }[];
    expect(unchanged).toMatchObject({ handledAt: null, deliveryState: 'failed' });
  });
}
