/**
 * Departures live everywhere, through a real server with embedded storage, changed by the
 * real CLI while the server runs: the API, the board, the trip page's live block, its Markdown
 * twin, departures.md and the calendar feeds. Hidden departures never appear in any of them,
 * and the trip page itself, built once per deploy, never carries a departure at all.
 */
import { describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.ts';
import { liveSite } from './live-site.ts';

const live = liveSite('departures-live');
const cli = live.cli;
const text = async (pathname: string, init?: RequestInit) => {
  const res = await fetch(`${live.server.url}${pathname}`, init);
  return { res, body: await res.text() };
};
interface ApiDeparture {
  id: string;
  status: string;
  seatsLeft: number | null;
  note?: string;
  startDate: string;
  endDate: string;
}
const api = async (query = ''): Promise<ApiDeparture[]> =>
  (await (await fetch(`${live.server.url}/v1/departures${query}`)).json()).data;

/** Every output that shows departures, as text. */
async function everyOutput(): Promise<Record<string, string>> {
  const paths = [
    '/v1/departures',
    '/v1/departures?trip=sample-trek',
    '/departures',
    '/departures?trip=sample-trek',
    '/departures.md',
    '/departures/block?trip=sample-trek',
    '/treks/sample-trek.md',
    '/departures.ics',
    '/treks/sample-trek.ics',
  ];
  return Object.fromEntries(await Promise.all(paths.map(async (p) => [p, (await text(p)).body] as const)));
}

function maxAge(header: string | null): number {
  const ages = [...(header ?? '').matchAll(/(?:s-)?max-age=(\d+)/g)].map((m) => Number(m[1]));
  return ages.length && !/no-store/.test(header ?? '') ? Math.max(...ages) : 0;
}

describe('live departures with the server running', () => {
  it('shows a change made with the CLI on the API, the board, the trip page, its twin and departures.md, once the freshness window has passed', async () => {
    const page = await text('/treks/sample-trek');
    const [before] = await api('?trip=sample-trek');
    expect(page.body).not.toContain(before!.id);
    expect(page.body).toContain('href="/departures?trip=sample-trek"');
    const [first] = await api('?trip=sample-trek');
    expect(first).toBeDefined();
    const changed = await cli('update', first!.id, '--seats-left', '0', '--note', 'Changed while the site runs');
    expect(changed.stderr).toBe('');
    expect(changed.code).toBe(0);

    // Departures are read at most once a second per trip (DEPARTURES_FRESH_MS; tests/unit/recent-reads.test.ts
    // holds the window itself): a change shows at the first read after it.
    await eventually(async () =>
      expect((await api('?trip=sample-trek')).find((d) => d.id === first!.id)).toMatchObject({
        status: 'sold_out',
        seatsLeft: 0,
        note: 'Changed while the site runs',
      }),
    );
    await eventually(async () => {
      const board = await text('/departures');
      expect(board.res.status).toBe(200);
      const row =
        new RegExp(`<li class="departure" data-departure="${first!.id}".*?</li>`, 's').exec(board.body)?.[0] ?? '';
      expect(row).toContain('Sold out');
      expect(row).toContain('Changed while the site runs');
    });
    await eventually(async () =>
      expect((await text('/departures/block?trip=sample-trek')).body).toContain('Changed while the site runs'),
    );
    await eventually(async () =>
      expect((await text('/departures?trip=sample-trek')).body).toContain('Changed while the site runs'),
    );
    await eventually(async () =>
      expect((await text('/treks/sample-trek.md')).body).toMatch(
        /\| .*\(Changed while the site runs\) \| Sold out \| 0 of 12 \| ₹15,000 \|/,
      ),
    );
    await eventually(async () =>
      expect((await text('/departures.md')).body).toMatch(
        /\(Changed while the site runs\) \| \[Fixture Trek\]\(.*\/treks\/sample-trek\) \(Moderate trek · 2 days · Fixture Valley, Ladakh\) \| Sold out \|/,
      ),
    );
    // Seats freed: the departure opens again everywhere.
    expect((await cli('update', first!.id, '--seats-left', '5')).code).toBe(0);
    await eventually(async () =>
      expect((await api('?trip=sample-trek')).find((d) => d.id === first!.id)).toMatchObject({
        status: 'open',
        seatsLeft: 5,
      }),
    );
    await eventually(async () =>
      expect((await text('/treks/sample-trek.md')).body).toMatch(
        /\(Changed while the site runs\) \| Open \| 5 of 12 \|/,
      ),
    );
  });

  it('never shows a hidden departure in any output, and shows it again once published', async () => {
    const [, second] = await api('?trip=sample-trek');
    const marker = 'Marker-of-a-departure-to-hide';
    expect((await cli('update', second!.id, '--note', marker)).code).toBe(0);
    await eventually(async () => {
      for (const [where, body] of Object.entries(await everyOutput()))
        expect(body.includes(marker) || body.includes(second!.id), where).toBe(true);
    });

    expect((await cli('hide', second!.id)).code).toBe(0);
    await eventually(async () => {
      for (const [where, body] of Object.entries(await everyOutput())) {
        expect(body, where).not.toContain(marker);
        expect(body, where).not.toContain(second!.id);
      }
    });
    expect((await cli('list', '--json')).stdout).toContain(second!.id);

    expect((await cli('publish', second!.id)).code).toBe(0);
    await eventually(async () => expect((await api()).map((d) => d.id)).toContain(second!.id));
  });

  it('answers Markdown and calendars with the right types, and caches nothing with departures for more than 60 s', async () => {
    for (const p of ['/departures.md', '/treks/sample-trek.md', '/expeditions/sample-expedition.md']) {
      const { res, body } = await text(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type'), p).toBe('text/markdown; charset=utf-8');
      expect(res.headers.get('vary'), p).toContain('Accept');
      expect(maxAge(res.headers.get('cache-control')), p).toBeLessThanOrEqual(60);
      expect(body, p).toMatch(/^# /);
    }
    for (const p of [
      '/departures',
      '/departures/block?trip=sample-trek',
      '/v1/departures',
      '/departures.ics',
      '/treks/sample-trek.ics',
    ]) {
      const { res } = await text(p);
      expect(res.status, p).toBe(200);
      expect(maxAge(res.headers.get('cache-control')), p).toBeGreaterThan(0);
      expect(maxAge(res.headers.get('cache-control')), p).toBeLessThanOrEqual(60);
    }
    const negotiated = await text('/departures', { headers: { Accept: 'text/markdown' } });
    expect(negotiated.res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(negotiated.body).toMatch(/^# Departures: live availability/);

    const twin = (await text('/treks/sample-trek.md')).body;
    for (const section of [
      '## Facts',
      '## Itinerary',
      '## Fitness and experience',
      '## What is included',
      '## What is not included',
      '## Gear',
      '## Departures',
      '## Price',
      '## How to enquire',
      '## Questions people ask',
      '## Sources',
    ]) {
      expect(twin).toContain(section);
    }
    expect(twin).toContain('| Day | Stage | Altitude | Distance | Walking |');
    expect(twin).toContain('₹15,000 per person');

    const missing = await text('/treks/no-such-trek.md');
    expect(missing.res.status).toBe(404);
    expect(missing.res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(missing.body).toContain('[Fixture Trek]');
    expect((await text('/expeditions/sample-trek.ics')).res.status).toBe(404);
  });

  it('publishes RFC 5545 calendars: CRLF, folded lines, all-day dates with an exclusive end, stable UIDs, cancellations', async () => {
    const cancelled = (await api('?trip=sample-trek')).at(-1)!;
    expect(
      (
        await cli(
          'update',
          cancelled.id,
          '--status',
          'cancelled',
          '--note',
          'Cancelled: the road to the trailhead is closed for repairs this month, so we cannot run it',
        )
      ).code,
    ).toBe(0);

    const { res, body } = await eventually(async () => {
      const answer = await text('/treks/sample-trek.ics');
      expect(answer.body).toContain('STATUS:CANCELLED');
      return answer;
    });
    const departures = await api('?trip=sample-trek');
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(body.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(body.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(body.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of body.split('\r\n')) expect(Buffer.byteLength(line), line).toBeLessThanOrEqual(75);
    const unfolded = body.replace(/\r\n[ \t]/g, '');
    const events = unfolded.split('BEGIN:VEVENT').slice(1);
    expect(events).toHaveLength(departures.length);
    for (const d of departures) {
      const event = events.find((e) => e.includes(`UID:departure-${d.id}@`));
      expect(event, d.id).toBeDefined();
      expect(event).toContain(`DTSTART;VALUE=DATE:${d.startDate.replace(/-/g, '')}`);
      const dayAfter = new Date(Date.parse(`${d.endDate}T00:00:00Z`) + 86_400_000)
        .toISOString()
        .slice(0, 10)
        .replace(/-/g, '');
      expect(event).toContain(`DTEND;VALUE=DATE:${dayAfter}`);
      expect(event).toMatch(/DTSTAMP:\d{8}T\d{6}Z/);
      expect(event).toContain('URL;VALUE=URI:');
      expect(event).toMatch(/SUMMARY:/);
    }
    const cancelledEvent = events.find((e) => e.includes(`UID:departure-${cancelled.id}@`))!;
    expect(cancelledEvent).toContain('STATUS:CANCELLED');
    expect(cancelledEvent).toContain(
      'the road to the trailhead is closed for repairs this month\\, so we cannot run it',
    );
    expect(events.filter((e) => e.includes('STATUS:CANCELLED'))).toHaveLength(1);

    const again = (await text('/treks/sample-trek.ics')).body;
    const uids = (ics: string) => [...ics.matchAll(/^UID:(.*)$/gm)].map((m) => m[1]);
    expect(uids(again)).toEqual(uids(body));
    const all = (await text('/departures.ics')).body;
    expect(uids(all)).toEqual(expect.arrayContaining(uids(body)));
  });
});
