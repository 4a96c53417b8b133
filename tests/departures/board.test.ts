/**
 * The departures board's filters, the framed departures block and the enquiry page of one
 * departure, over HTTP through a real server with embedded storage: what each address answers,
 * that an address written another way (order, unknown or empty parameters) gets the same answer,
 * that values it does not accept are ignored and never repeated, and that the Markdown twin and
 * departures.md follow the same filters.
 */
import { describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.ts';
import { liveSite } from './live-site.ts';

const live = liveSite('departures-board');

const get = async (pathname: string, init?: RequestInit) => {
  const res = await fetch(`${live.server.url}${pathname}`, init);
  return { res, body: await res.text() };
};
interface ApiDeparture {
  id: string;
  tripSlug: string;
  status: string;
  seatsLeft: number | null;
  startDate: string;
  endDate: string;
}
const api = async (query = ''): Promise<ApiDeparture[]> =>
  (await (await fetch(`${live.server.url}/v1/departures${query}`)).json()).data;

/** The cards of a board or block: id, start date and status. */
const cards = (html: string) =>
  [
    ...html.matchAll(
      /<li class="departure" data-departure="([^"]+)" data-trip="([^"]+)" data-start="([^"]+)" data-end="[^"]+" data-status="([^"]+)"(?: data-seats-left="(\d+)")?/g,
    ),
  ].map((m) => ({
    id: m[1]!,
    trip: m[2]!,
    start: m[3]!,
    status: m[4]!,
    seatsLeft: m[5] === undefined ? null : Number(m[5]),
  }));
/** The answer without the time it was read, which moves on with the clock. */
const untimed = (body: string) =>
  body.replace(/read live at [^.<|]*/gi, 'read live at …').replace(/Read live at [^.]*/g, '');

describe("the board's filters", () => {
  it('by month, kind of trip and seats left, grouped by month, with the form showing what was chosen', async () => {
    const all = await api();
    const month = all[0]!.startDate.slice(0, 7);
    const { res, body } = await get(`/departures?month=${month}&type=trek&seats=2`);
    expect(res.status).toBe(200);
    const shown = cards(body);
    const expected = all.filter(
      (d) =>
        d.startDate.startsWith(month) &&
        d.tripSlug === 'sample-trek' &&
        /open|filling/.test(d.status) &&
        (d.seatsLeft ?? 99) >= 2,
    );
    expect(shown.map((c) => c.id)).toEqual(expected.map((d) => d.id));
    expect(shown.length).toBeGreaterThan(0);
    // The form shows what was chosen: the month as its first and last day, the older `seats` as minSeats.
    expect(body).toContain(`name="from" type="date" value="${month}-01"`);
    expect(body).toMatch(new RegExp(`name="to" type="date" value="${month}-(28|29|30|31)"`));
    expect(body).toContain('<option value="trek" selected>Treks</option>');
    expect(body).toMatch(/name="minSeats" type="number"[^>]* value="2"/);
    expect(body).toMatch(/<link rel="canonical" href="http:\/\/[^"]+\/departures">/);
    expect(body.match(/<details class="board-month"/g)).toHaveLength(1);
    expect(body).toContain(`href="/departures.md?month=${month}&amp;type=trek&amp;minSeats=2"`);
    expect(body).toContain(`href="/departures.ics?month=${month}&amp;type=trek&amp;minSeats=2"`);
  });

  it('groups every departure by month, each month saying how many and how many are open', async () => {
    const all = await api();
    const { body } = await get('/departures');
    const months = [...new Set(all.map((d) => d.startDate.slice(0, 7)))];
    const groups = [
      ...body.matchAll(
        /<details class="board-month" id="month-(\d{4}-\d{2})"( open)?>[\s\S]*?<span class="board-month-facts">([^<]*)<\/span>/g,
      ),
    ];
    expect(groups.map((g) => g[1])).toEqual(months);
    for (const [, month, , facts] of groups) {
      const inMonth = all.filter((d) => d.startDate.startsWith(month!));
      expect(facts).toContain(
        `${inMonth.length} departures · ${inMonth.filter((d) => /open|filling/.test(d.status)).length} open`,
      );
    }
    expect(groups[0]![2]).toBe(' open');
    expect(cards(body)).toHaveLength(all.length);
  });

  it('answers an address written another way (order, empty or unknown parameters) exactly as its canonical form', async () => {
    const month = (await api())[0]!.startDate.slice(0, 7);
    const canonical = `/departures?month=${month}&type=trek&seats=1`;
    const variants = [
      `/departures?seats=1&type=trek&month=${month}`,
      `/departures?month=${month}&type=trek&seats=1&trip=&utm_source=mail&z=1`,
    ];
    const [first, ...rest] = await Promise.all([canonical, ...variants].map((p) => get(p)));
    for (const other of rest) expect(untimed(other.body)).toBe(untimed(first!.body));
  });

  it('ignores values it does not accept, says so without repeating them, and shows the board without those filters', async () => {
    const { res, body } = await get('/departures?month=1999-01&type=%3Cb%3Eboat&seats=100&trip=no-such-trip');
    expect(res.status).toBe(200);
    expect(body).toContain('Some of the address was not used');
    for (const echoed of ['1999-01', 'boat', '&lt;b&gt;', '100', 'no-such-trip']) expect(body).not.toContain(echoed);
    expect(cards(body)).toHaveLength((await api()).length);
  });

  it('says plainly when nothing matches, with the way back to every departure', async () => {
    const { res, body } = await get('/departures?month=2029-10');
    expect(res.status).toBe(200);
    expect(body).toContain('No departures match this search.');
    expect(body).toContain('<a href="/departures">show every departure</a>');
    // The one change that finds dates: the nearest month that has some.
    expect(body).toMatch(
      /<ul class="relaxations"><li><a href="\/departures\?month=\d{4}-\d{2}">\d+ dates? in [A-Z][a-z]+ \d{4}<\/a><\/li><\/ul>/,
    );
  });

  it('the Markdown twin and departures.md follow the same filters', async () => {
    const month = (await api())[0]!.startDate.slice(0, 7);
    const query = `?month=${month}&type=expedition`;
    const twin = await get(`/departures${query}`, { headers: { Accept: 'text/markdown' } });
    const file = await get(`/departures.md${query}`);
    expect(twin.res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(untimed(twin.body)).toBe(untimed(file.body));
    expect(file.body).toMatch(/^# Departures: [A-Z][a-z]+ \d{4}, expeditions/);
    const rows = file.body.split('\n').filter((l) => /^\| \d/.test(l));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toContain('[Fixture Expedition]');
    const ignored = await get('/departures.md?seats=5');
    expect(ignored.body).toContain('Some of the address was not used');
  });
});

describe("the search's calendar", () => {
  it('answers a filter it cannot use with 400 and the reason, never repeating the address, as /v1/departures does', async () => {
    for (const [query, reason] of [
      ['?month=2027-13', 'the month in the address is not one we list'],
      ['?minSeats=abc', '“minSeats” takes a whole number from 1'],
      ['?type=trek&difficulty=hard', '“difficulty” takes one of "Easy", "Moderate", "Difficult", "Very Difficult"'],
      ['?minDays=10&maxDays=5', '“minDays” is above “maxDays”'],
      ['?from=2027-10-31&to=2027-09-20', '“from” is after “to”'],
    ] as const) {
      const { res, body } = await get(`/departures.ics${query}`);
      expect(res.status, query).toBe(400);
      expect(res.headers.get('content-type'), query).toBe('text/plain; charset=utf-8');
      expect(body, query).toContain('This search was not made');
      expect(body, query).toContain(reason);
      for (const echoed of ['2027-13', 'abc', 'hard']) expect(body, query).not.toContain(echoed);
      const api = await fetch(`${live.server.url}/v1/departures${query.replace(/month=2027-13/, 'from=2027-13-01')}`);
      expect(api.status, `/v1/departures${query}`).toBe(400);
    }
    // The board leaves such a filter out and says so: a person reads the sentence.
    const board = await get('/departures?minDays=10&maxDays=5');
    expect(board.res.status).toBe(200);
    expect(board.body).toContain('“minDays” is above “maxDays”, so neither length is used');
  });

  it('a search that matches nothing is a valid calendar: CRLF lines, the last one too, and a component that is no event', async () => {
    const { res, body } = await get('/departures.ics?month=2029-10');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(body.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(
      body
        .slice(0, -2)
        .split('\r\n')
        .every((line) => !/[\r\n]/.test(line)),
    ).toBe(true);
    expect(body).not.toContain('BEGIN:VEVENT');
    expect(body).toContain('BEGIN:VTIMEZONE\r\nTZID:Asia/Kolkata\r\n');
  });
});

describe("a trip's departures block", () => {
  it('is a small document of its own: framed by its trip page without JavaScript, and never indexed', async () => {
    const { res, body } = await get('/departures/block?trip=sample-trek');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    expect(body).toMatch(/^<!DOCTYPE html>/i);
    expect(body).toContain('<title>Live departures of Fixture Trek</title>');
    expect(body).toContain('<meta name="robots" content="noindex">');
    expect(body).toContain('<base target="_top">');
    expect(body).toContain('<div class="departures-compact"><div class="departures-live" data-live-departures="live">');
    expect(cards(body).map((c) => c.id)).toEqual((await api('?trip=sample-trek')).map((d) => d.id));
    expect(body).toMatch(/All \d+ dates on the board/);
    expect((await get('/departures/block?trip=nope')).res.status).toBe(404);
  });

  it('the trip page carries the frame of it and no date or seat of its own', async () => {
    const { body } = await get('/treks/sample-trek');
    expect(body).toContain(
      '<noscript><iframe class="departures-frame" src="/departures/block?trip=sample-trek" title="Live departures of Fixture Trek"></iframe></noscript>',
    );
    expect(body).not.toMatch(/seats left<|data-departure=/);
    for (const d of await api('?trip=sample-trek')) expect(body).not.toContain(d.id);
  });
});

describe('the enquiry page of one departure', () => {
  it("fills the chosen departure's dates into the trip's form, read live", async () => {
    const [d] = (await api('?trip=sample-trek')).filter((x) => /open|filling/.test(x.status));
    const board = (await get('/departures?trip=sample-trek')).body;
    const href = `/treks/sample-trek/enquire?departure=${d!.id}`;
    expect(board).toContain(`href="${href}"`);
    const { res, body } = await get(href);
    expect(res.status).toBe(200);
    expect(Number(/max-age=(\d+)/.exec(res.headers.get('cache-control') ?? '')?.[1])).toBeLessThanOrEqual(60);
    const dates = /<strong>([^<]+)<\/strong><\/dd>/.exec(body)?.[1];
    expect(dates).toMatch(/^\d{1,2} \w+ \d{4}( to \d{1,2} \w+ \d{4})?$/);
    expect(body).toContain(`<h1>Enquire about Fixture Trek, ${dates}</h1>`);
    expect(body).toMatch(
      new RegExp(`<input id="enquiry-preferredDeparture" name="preferredDeparture"[^>]*value="${dates}">`),
    );
    expect(body).toContain('<input type="hidden" name="tripSlug" value="sample-trek">');
    expect(body).toContain('<meta name="robots" content="noindex">');
    expect((await get(href, { method: 'HEAD' })).res.status).toBe(200);
  });

  it('a departure no longer open, or unknown: says so, never repeats the address, offers the open dates', async () => {
    const [first, second] = await api('?trip=sample-trek');
    const sold = await live.cli('update', second!.id, '--seats-left', '0');
    expect(sold.code).toBe(0);
    const page = await eventually(async () => {
      const answer = await get(`/treks/sample-trek/enquire?departure=${second!.id}`);
      expect(answer.body).toContain('is sold out, so it is not open for enquiries');
      return answer;
    });
    expect(page.res.status).toBe(200);
    expect(page.body).toMatch(/value=""><\/div>|name="preferredDeparture"[^>]*value="">/);
    expect(page.body).toContain(`href="/treks/sample-trek/enquire?departure=${first!.id}"`);

    const unknown = await get('/treks/sample-trek/enquire?departure=%3Cscript%3Egone-2031');
    expect(unknown.res.status).toBe(404);
    expect(unknown.body).toContain('That departure of Fixture Trek is no longer on sale.');
    expect(unknown.body).not.toContain('gone-2031');
    expect(unknown.body).toContain('<form id="enquiry-form"');

    const plain = await get('/treks/sample-trek/enquire');
    expect(plain.res.status).toBe(200);
    expect(plain.body).toContain('Open dates of Fixture Trek:');
    expect((await get('/expeditions/sample-trek/enquire', { redirect: 'manual' })).res.status).toBe(301);
    expect((await get('/treks/no-such-trek/enquire')).res.status).toBe(404);
    expect((await live.cli('update', second!.id, '--seats-left', '6')).code).toBe(0);
  });
});
