/** The departure rules, the input shapes and the CSV format as pure functions. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { departuresToCsv, parseCsv, readDepartureCsv } from '../../service/departures/csv.ts';
import { departureChanges, departureInput, inputIssues } from '../../service/departures/input.ts';
import type { AdminDeparture } from '../../service/departures/source.ts';
import { todayInIndia } from '../../service/departures/store.ts';
import { addDays, seatsForStatus, settleStatus, statusForSeats } from '../../service/departures/validation.ts';
import { departuresCalendar } from '../../service/calendar/departures.ts';
import { tableCell } from '../../service/markdown/departures.ts';
import { loadCatalogue } from '../helpers/content.ts';

describe('status follows seats', () => {
  it('suggests sold_out at 0, filling at 3 or fewer, open above, and open when seats are not counted', () => {
    expect([0, 1, 3, 4, 12, null].map(statusForSeats)).toEqual([
      'sold_out',
      'filling',
      'filling',
      'open',
      'open',
      'open',
    ]);
  });

  it('changes the status only when the seats change and no status is given, and never un-cancels', () => {
    const seats = { explicit: false, seatsChanged: true };
    expect(settleStatus('open', 0, seats)).toBe('sold_out');
    expect(settleStatus('sold_out', 5, seats)).toBe('open');
    expect(settleStatus('sold_out', 2, seats)).toBe('filling');
    expect(settleStatus('cancelled', 0, seats)).toBe('cancelled');
    expect(settleStatus('filling', 10, { explicit: true, seatsChanged: true })).toBe('filling');
    expect(settleStatus('filling', 10, { explicit: false, seatsChanged: false })).toBe('filling');
  });

  it('takes sold_out named without seats as no seats left, and keeps seats that were never counted unset', () => {
    expect(seatsForStatus('sold_out', 5)).toBe(0);
    expect(seatsForStatus('sold_out', null)).toBeNull();
    expect(seatsForStatus('filling', 2)).toBe(2);
    expect(seatsForStatus(undefined, 7)).toBe(7);
  });

  it('counts days across months and years', () => {
    expect(addDays('2030-12-30', 3)).toBe('2031-01-02');
    expect(addDays('2032-02-28', 1)).toBe('2032-02-29');
  });

  it("takes today's date in India, which is ahead of UTC in the evening", () => {
    expect(todayInIndia(new Date('2030-06-09T19:00:00Z'))).toBe('2030-06-10');
    expect(todayInIndia(new Date('2030-06-09T18:00:00Z'))).toBe('2030-06-09');
  });
});

describe('departure input from people', () => {
  it('reads numbers with Indian digit grouping, loose status spellings and yes/no', () => {
    expect(
      departureInput.parse({
        tripSlug: ' sample-trek ',
        startDate: '2030-06-10',
        priceInr: '1,25,000',
        status: 'Sold Out',
        published: 'No',
        note: '  ',
      }),
    ).toEqual({
      tripSlug: 'sample-trek',
      startDate: '2030-06-10',
      priceInr: 125000,
      status: 'sold_out',
      published: false,
      note: null,
    });
    expect(departureChanges.parse({ priceInr: 'trip', seatsLeft: '' })).toEqual({ priceInr: null, seatsLeft: null });
  });

  it('names each field that is not in the right form', () => {
    const result = departureInput.safeParse({
      tripSlug: 'Sample Trek',
      startDate: '10/06/2030',
      seatsLeft: '2.5',
      status: 'full',
      colour: 'red',
    });
    expect(result.success).toBe(false);
    const issues = inputIssues(result.error!).map((i) => `${i.field}: ${i.message}`);
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^tripSlug: must use only lowercase letters/),
        'startDate: "10/06/2030" is not a real date; write it as YYYY-MM-DD, for example 2027-05-14',
        'seatsLeft: must be a whole number',
        'status: must be one of "open", "filling", "sold_out", "cancelled"',
        expect.stringMatching(/^input: unknown field\(s\) "colour"/),
      ]),
    );
  });
});

describe('CSV', () => {
  it('reads quoted cells with commas, quotes and line breaks, CRLF or LF, with or without a byte order mark', () => {
    const records = parseCsv('\uFEFFa,b,c\r\n1,"two, ""2""",3\n"multi\nline",,\n\n');
    expect(records).toEqual([
      { line: 1, cells: ['a', 'b', 'c'] },
      { line: 2, cells: ['1', 'two, "2"', '3'] },
      { line: 3, cells: ['multi\nline', '', ''] },
    ]);
    expect(() => parseCsv('a\n"open')).toThrow('a quoted cell is never closed');
  });

  it('writes what it reads back', () => {
    const departure: AdminDeparture = {
      id: 'sample-trek-2030-06-10',
      tripSlug: 'sample-trek',
      startDate: '2030-06-10',
      endDate: '2030-06-11',
      status: 'filling',
      priceInr: null,
      seatsTotal: 12,
      seatsLeft: 2,
      note: 'Say "hello", bring water',
      published: false,
    };
    const csv = departuresToCsv([departure]);
    expect(csv).toBe(
      'id,tripSlug,startDate,endDate,status,priceInr,seatsTotal,seatsLeft,note,published\r\nsample-trek-2030-06-10,sample-trek,2030-06-10,2030-06-11,filling,,12,2,"Say ""hello"", bring water",no\r\n',
    );
    const [row] = readDepartureCsv(csv);
    const { id, ...rest } = departureInput.parse(row!.record);
    expect({ id, ...rest }).toEqual({ ...departure, priceInr: null });
  });
});

describe('CSV cells a spreadsheet would run', () => {
  const departure = (note: string | null): AdminDeparture => ({
    id: 'sample-trek-2030-06-10',
    tripSlug: 'sample-trek',
    startDate: '2030-06-10',
    endDate: '2030-06-11',
    status: 'open',
    priceInr: 18500,
    seatsTotal: 12,
    seatsLeft: 10,
    note,
    published: true,
  });
  /** The note cell as a spreadsheet reads it: after CSV unquoting. */
  const exportedNote = (note: string) => parseCsv(departuresToCsv([departure(note)]))[1]!.cells[8];
  const noteBack = (note: string) =>
    departureInput.parse(readDepartureCsv(departuresToCsv([departure(note)]))[0]!.record).note;

  it('exports a cell starting with = + - @, tab or carriage return behind a single quote (OWASP), and imports it back as written', () => {
    for (const note of [
      '=HYPERLINK("https://evil.example","Seats")',
      '+91 98765 43210',
      '-2 seats held',
      '@SUM(A1:A9)',
      '=1+2',
    ]) {
      expect(exportedNote(note), note).toBe(`'${note}`);
      expect(noteBack(note), note).toBe(note);
    }
    expect(departuresToCsv([departure('=1+2')])).toContain(",'=1+2,yes\r\n");
    for (const cell of ['\t=1+2', '\r=1+2'])
      expect(parseCsv(departuresToCsv([{ ...departure(null), id: cell }]))[1]!.cells[0]).toBe(`'${cell}`);
    // A note that already starts with a quote before such a character keeps it: the export adds one, the import removes one.
    expect(exportedNote("'=1+2")).toBe("''=1+2");
    expect(noteBack("'=1+2")).toBe("'=1+2");
    expect(exportedNote("'tis the season")).toBe("'tis the season");
    expect(noteBack("'tis the season")).toBe("'tis the season");
    // Numbers are written as numbers, a negative one too.
    expect(departuresToCsv([{ ...departure(null), priceInr: -18500 }])).toContain(',open,-18500,12,10,,yes\r\n');
    // A note that is a plain number runs nothing: it stays a number for data tools.
    for (const note of ['-12', '+3.5', '-0.25']) {
      expect(exportedNote(note), note).toBe(note);
      expect(noteBack(note), note).toBe(note);
    }
    // A hand-written file may neutralise cells the same way.
    const [row] = readDepartureCsv("tripSlug,startDate,note\nsample-trek,2030-06-10,'=1+2\n");
    expect(row!.record.note).toBe('=1+2');
  });

  it('never exports a cell a spreadsheet would run, and every note survives export and import', () => {
    const text = fc.string({
      unit: fc.constantFrom('=', '+', '-', '@', "'", '\t', '\r', ' ', 'a', '1', ',', '"', 'é'),
      maxLength: 8,
    });
    fc.assert(
      fc.property(text, (raw) => {
        const csv = departuresToCsv([{ ...departure(raw), id: raw }]);
        const [, record] = parseCsv(csv);
        // A cell that is a plain number runs nothing and stays a number for data tools.
        for (const cell of record!.cells)
          if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(cell)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
        const [row] = readDepartureCsv(csv);
        expect(row!.record.id).toBe(raw);
        expect(row!.record.note).toBe(raw);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('calendar and Markdown text', () => {
  it('escapes text for Markdown tables', () => {
    expect(tableCell('a | b\nc')).toBe('a \\| b c');
  });

  it('writes an empty calendar without events, and escapes commas and semicolons in text', () => {
    const catalogue = loadCatalogue();
    const trek = catalogue.trips.find((p) => p.trip.slug === 'sample-trek')!;
    const ics = departuresCalendar(catalogue, [], { page: trek }, new Date('2030-01-01T00:00:00Z'));
    expect(ics).not.toContain('BEGIN:VEVENT');
    const withNote = departuresCalendar(
      catalogue,
      [
        {
          id: 'x',
          tripSlug: 'sample-trek',
          tripName: 'Fixture Trek',
          tripUrl: trek.trip.url,
          startDate: '2030-06-10',
          endDate: '2030-06-10',
          status: 'open',
          priceInr: 125000,
          seatsTotal: 12,
          seatsLeft: 12,
          note: 'Meet at 6; bring ID, please',
        },
      ],
      {},
      new Date('2030-01-01T00:00:00Z'),
    );
    const unfolded = withNote.replace(/\r\n[ \t]/g, '');
    expect(unfolded).toContain('Meet at 6\\; bring ID\\, please');
    expect(unfolded).toContain('DTSTART;VALUE=DATE:20300610\r\nDTEND;VALUE=DATE:20300611');
    expect(unfolded).toContain('DTSTAMP:20300101T000000Z');
    expect(unfolded).toContain('₹1\\,25\\,000');
  });
});
